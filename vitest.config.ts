import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["app/**/*.test.ts", "app/**/*.test.tsx", "server/**/*.test.ts", "tests/api/**/*.test.ts"],
    environment: "node",
    env: { DATA_DIR: "tests/.tmp/vitest-data", SESSION_SECRET: "test-session-secret", SEED_DEMO: "0" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
