import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [index("routes/home.tsx"), route("resource", "routes/resource.ts")] satisfies RouteConfig;
