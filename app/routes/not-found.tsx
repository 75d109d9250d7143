/** Any unknown path: 404 «Page not found: {path}» on the error page (docs/product/routes.md#error-page). */
import type { Route } from "./+types/not-found";

function notFound(request: Request): never {
  const { pathname } = new URL(request.url);
  throw new Response(`Page not found: ${pathname}`, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

export async function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}

export async function action({ request }: Route.ActionArgs) {
  notFound(request);
}

export default function NotFound() {
  return null;
}
