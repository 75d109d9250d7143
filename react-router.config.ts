import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  routeDiscovery: { mode: "initial" },
  // BUILD_DIR lets parallel checkouts or test runs build side by side (default ./build).
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
