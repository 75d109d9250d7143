/** POST /bookmarks: bookmark or un-bookmark a post. STUB. */
import { redirect } from "react-router";

export async function loader() {
  return redirect("/");
}
