import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("resource", "routes/resource.ts"),
  // The floor of a page's rendering: a page of the site's markup, written with no components or data.
  route("markup/:name", "routes/markup.tsx"),
] satisfies RouteConfig;
