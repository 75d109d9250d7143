/** POST /profile/{id}/block: block or unblock. STUB. */
import { redirect } from "react-router";
import type { Route } from "./+types/block";

export async function loader({ params }: Route.LoaderArgs) {
  return redirect(`/profile/${params.id}`);
}
