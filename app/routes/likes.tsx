/** POST /likes: like or unlike a post, comment or wall post. STUB. */
import { redirect } from "react-router";

export async function loader() {
  return redirect("/");
}
