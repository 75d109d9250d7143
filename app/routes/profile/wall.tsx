/** POST /profile/{id}/wall: write, delete or pin a wall entry. STUB. */
import { redirect } from "react-router";
import type { Route } from "./+types/wall";

export async function loader({ params }: Route.LoaderArgs) {
  return redirect(`/profile/${params.id}`);
}
