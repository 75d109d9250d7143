import { availableParallelism } from "node:os";
import tsconfigPaths from "vite-tsconfig-paths";
import { configDefaults, defineConfig } from "vitest/config";

// PASSWORD_HASHING: the suites register thousands of members, 40 ms of CPU each at argon2's real
// cost (app/lib/password.server.ts; its own test checks the real cost).
const env = { DATA_DIR: "tests/.tmp/vitest-data", SESSION_SECRET: "test-session-secret", SEED_DEMO: "0", PASSWORD_HASHING: "fast-insecure-for-tests" };
// Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine. Domain
// test files share nothing (each copies its own database), so they run one per core, and at
// least two at once (docs/product/engineering.md#tests).
const domainWorkers = Math.max(2, availableParallelism());
// Suites that replace a module with vi.mock need a module graph of their own; every other domain
// suite shares its worker's modules with the suites before it (`isolate: false`), which spares each
// file ~1.5 s of importing the app again (the api project too): on PGlite the domain suite took 205 s instead of 346 s here.
// Module state is keyed by database (WeakMaps) or reset by the suite that sets it, so sharing is safe.
const mockingSuites = ["app/lib/realtime/ws.server.test.ts", "app/lib/realtime/sse.server.test.ts", "app/routes/conversations/data.server.test.ts"];
const domainInclude = ["app/**/*.test.ts", "app/**/*.test.tsx", "server/**/*.test.ts", "tests/lint/**/*.test.ts"];

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    // A timeout catches a test that hangs; it measures no speed. In `npm test` the Vitest steps share
    // the machine with the journeys (decision 0031), where a test takes three to five times as long
    // as alone: a test that makes several members and deals over HTTP can pass 30 s there. A hook
    // may start a server of its own, which tests/setup/server.ts allows 180 s: on the slowest
    // machine yet (2026-12-02) one such start passed 90 s beside the journeys.
    testTimeout: 60_000,
    hookTimeout: 200_000,
    projects: [
      {
        extends: true,
        // tests/lint: the lint config's layering rules (ESLint's Node API, no database).
        test: {
          name: "domain",
          include: domainInclude,
          exclude: [...configDefaults.exclude, ...mockingSuites],
          isolate: false,
          environment: "node",
          env,
          globalSetup: ["tests/setup/domain-global.ts"],
          maxWorkers: domainWorkers,
          // Groups run one after the other: the api files first, then the domain files, which keep
          // every core busy after `npm test`'s journeys end (decision 0031).
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        // The domain suites that use vi.mock, each in its own module graph; run with `domain`.
        test: {
          name: "domain-mocks",
          include: mockingSuites,
          environment: "node",
          env,
          globalSetup: ["tests/setup/domain-global.ts"],
          maxWorkers: domainWorkers,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          isolate: false,
          environment: "node",
          globalSetup: ["tests/setup/api-global.ts"],
          setupFiles: ["tests/setup/api-client.ts"],
          // Two files at a time against the shared server: one file alone left a third of the
          // machine idle while it waited on the server (docs/product/engineering.md#keeping-the-run-short).
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Several server processes on one PostgreSQL database (TEST_DATABASE_URL); scripts/test.sh
        // runs it only in its PostgreSQL step.
        extends: true,
        test: { name: "cluster", include: ["tests/cluster/**/*.test.ts"], environment: "node", sequence: { groupOrder: 2 } },
      },
    ],
  },
});
