import type { WallView } from "~/domain/wall/wall.server";

/** STUB: the wall on a public profile (the wall helper fills it). */
export function WallSection(_props: { ownerId: number; wall: WallView; viewerId: number | null; canWrite: boolean }) {
  return null;
}
