import type { Config } from "@react-router/dev/config";

/** The baseline of bench/http: one page and one resource route, no data, no styles. */
export default {
  ssr: true,
  appDirectory: "app",
  buildDirectory: "build",
} satisfies Config;
