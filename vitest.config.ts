import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

const env = { DATA_DIR: "tests/.tmp/vitest-data", SESSION_SECRET: "test-session-secret", SEED_DEMO: "0" };

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    testTimeout: 30_000,
    hookTimeout: 90_000,
    projects: [
      {
        extends: true,
        // tests/lint: the lint config's layering rules (ESLint's Node API, no database).
        test: {
          name: "domain",
          include: ["app/**/*.test.ts", "app/**/*.test.tsx", "server/**/*.test.ts", "tests/lint/**/*.test.ts"],
          environment: "node",
          env,
        },
      },
      {
        extends: true,
        test: { name: "api", include: ["tests/api/**/*.test.ts"], environment: "node", globalSetup: ["tests/setup/api-global.ts"] },
      },
      {
        // Several server processes on one PostgreSQL database (TEST_DATABASE_URL); scripts/test.sh
        // runs it only in its PostgreSQL step.
        extends: true,
        test: { name: "cluster", include: ["tests/cluster/**/*.test.ts"], environment: "node" },
      },
    ],
  },
});
