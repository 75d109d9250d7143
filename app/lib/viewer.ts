import type { ThemeColors } from "~/db/schema";
import { ranksOf, type Rank } from "~/domain/users/users.server";

/** What every page knows of the signed-in member (root loader): enough for the header. */
export interface Viewer {
  id: number;
  username: string;
  displayName: string | null;
  image: string | null;
  role: "member" | "moderator" | "admin";
  ranks: Rank[];
  theme: ThemeColors | null;
}

export function toViewer(user: {
  id: number;
  username: string;
  displayName: string | null;
  image: string | null;
  role: "member" | "moderator" | "admin";
  verified: boolean;
  scammer: boolean;
  theme: ThemeColors | null;
}): Viewer {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    image: user.image,
    role: user.role,
    ranks: ranksOf(user),
    theme: user.theme,
  };
}
