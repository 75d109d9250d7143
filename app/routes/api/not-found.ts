/** Any unknown /api path: 404 JSON `{success: false, errors: {code: "not_found"}}`. */
import type { Route } from "./+types/not-found";
import { NotFound, toApiErrorResponse } from "~/lib/errors";

const answer = (request: Request) => toApiErrorResponse(new NotFound(`Page not found: ${new URL(request.url).pathname}`, "not_found"));

export async function loader({ request }: Route.LoaderArgs) {
  return answer(request);
}

export async function action({ request }: Route.ActionArgs) {
  return answer(request);
}
