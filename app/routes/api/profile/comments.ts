/** GET /api/profile/{id}/comments: a member's comments, paginated. STUB. */
import { NotFound, toApiErrorResponse } from "~/lib/errors";

export async function loader() {
  return toApiErrorResponse(new NotFound("Скоро", "not_implemented"));
}
