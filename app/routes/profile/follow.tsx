/** POST /profile/{id}/follow: follow or unfollow. STUB. */
import { redirect } from "react-router";
import type { Route } from "./+types/follow";

export async function loader({ params }: Route.LoaderArgs) {
  return redirect(`/profile/${params.id}`);
}
