/** GET /api/profiles/online. STUB. */
import { NotFound, toApiErrorResponse } from "~/lib/errors";

export async function loader() {
  return toApiErrorResponse(new NotFound("Скоро", "not_implemented"));
}
