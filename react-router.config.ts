import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Every route's manifest in one cached file, not matched and inlined on each request (docs/decisions/0032).
  routeDiscovery: { mode: "initial" },
  // BUILD_DIR lets parallel checkouts or test runs build side by side (default ./build).
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
