/**
 * The profile wall (issue 3, PRODUCT.md Content). STUB: the wall helper implements it.
 */
import type { Db } from "~/db/client.server";
import type { Page, PageParams } from "~/lib/pagination";
import type { UserRow } from "../users/users.server";

/** One wall entry (the helper defines the fields). */
export interface WallPostDto {
  id: number;
}

export interface WallView {
  pinned: WallPostDto | null;
  entries: Page<WallPostDto>;
}

export async function loadWall(_db: Db, _viewer: UserRow | null, _ownerId: number, params: PageParams): Promise<WallView> {
  return { pinned: null, entries: { items: [], page: params.page, perPage: params.perPage, total: 0, totalPages: 1 } };
}
