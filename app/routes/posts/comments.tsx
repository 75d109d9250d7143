/** POST /post/{id}/comments: write, reply, edit or delete a comment. STUB. */
import { redirect } from "react-router";
import type { Route } from "./+types/comments";

export async function loader({ params }: Route.LoaderArgs) {
  return redirect(`/post/${params.id}`);
}
