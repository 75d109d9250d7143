import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";

/** The root loader's data (site name, signed-in viewer, CSRF token) from any component. */
export function useRootData() {
  return useRouteLoaderData<typeof rootLoader>("root");
}
