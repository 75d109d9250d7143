/**
 * Journeys in Debian's Chromium (its headless shell, or /usr/bin/chromium; never a downloaded browser), once with
 * JavaScript and once without, against the built server on a fresh demo database. They run
 * side by side in three workers (docs/product/engineering.md#tests): each journey makes its own
 * members, and the few that look at something shared wait for their turn (tests/e2e/turns.ts).
 */
import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3199);
// The assistant's fake OpenAI-compatible endpoint (tests/setup/fake-assistant.ts) listens beside the site.
const FAKE_ASSISTANT_PORT = PORT + 1000;
// With E2E_DATABASE_URL (a PostgreSQL database, recreated empty) the site runs on PostgreSQL as in
// production; `npm test` sets it from TEST_DATABASE_URL. Otherwise on PGlite in tests/.tmp.
const DATABASE_URL = process.env.E2E_DATABASE_URL;
// Debian's Chromium headless shell (the package chromium-headless-shell, which scripts/ensure-chromium.sh
// installs) when present: the journeys cost it less than half the CPU of the full browser's headless
// mode (decision 0030). CHROMIUM_PATH names another binary. A window (`--headed`, `--ui`, `--debug`,
// PWDEBUG) needs the full browser. The runner decides and its workers, which load this file again
// without the command's arguments, inherit the choice through the environment.
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
const WITH_WINDOW = ["--headed", "--ui", "--debug"].some((flag) => process.argv.includes(flag)) || Boolean(process.env.PWDEBUG);
process.env.E2E_CHROMIUM ??= process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) && !WITH_WINDOW ? HEADLESS_SHELL : "/usr/bin/chromium");
const CHROMIUM = process.env.E2E_CHROMIUM;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 3,
  retries: 0,
  forbidOnly: true,
  // scripts/test-summary.mjs reads the JSON report for the closing "N passed, N failed" line.
  reporter: [["list"], ["json", { outputFile: "tests/.tmp/playwright.json" }]],
  // Long journeys (forty steps, two or three members) take most of a minute on a loaded 2-core machine.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: "ru-RU",
    timezoneId: "Europe/Moscow",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    // Recording a trace costs about a fifth of the run on 2 cores; to debug a failure locally, run
    // `npx playwright test --trace retain-on-failure <file>`.
    trace: "off",
    // The reader's "reduce motion" setting, which app/app.css honours: the online list's pulsing dot
    // and the skeletons stop repainting every frame, which took about a fifth of the run's CPU
    // (decision 0030). What a journey checks does not move.
    reducedMotion: "reduce",
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    // Journeys tagged @js-only test what only a script does (the build check, the chunk reload guard).
    { name: "no-js", use: { javaScriptEnabled: false }, grepInvert: /@js-only/ },
  ],
  webServer: [
    {
      command: "npx tsx tests/e2e/fake-assistant-server.ts",
      url: `http://127.0.0.1:${FAKE_ASSISTANT_PORT}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { FAKE_ASSISTANT_PORT: String(FAKE_ASSISTANT_PORT) },
    },
    {
      // DATA_DIR holds uploads and the mails the journeys open (tests/e2e/email.spec.ts), and PGlite's files without DATABASE_URL.
      command: `rm -rf tests/.tmp/e2e-data-${PORT} tests/.tmp/e2e-turns-${PORT} && ${DATABASE_URL ? `node scripts/fresh-database.mjs "${DATABASE_URL}" && ` : ""}node server/index.js`,
      url: `http://127.0.0.1:${PORT}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        NODE_ENV: "production",
        PORT: String(PORT),
        HOST: "127.0.0.1",
        DATA_DIR: `tests/.tmp/e2e-data-${PORT}`,
        ...(DATABASE_URL ? { DATABASE_URL } : {}),
        SEED_DEMO: "1",
        // Cheap password hashes: the journeys register hundreds of members (app/lib/password.server.ts).
        PASSWORD_HASHING: "fast-insecure-for-tests",
        TELEGRAM_BOT_TOKEN: "7000002:e2e-test-token",
        ASSISTANT_BASE_URL: `http://127.0.0.1:${FAKE_ASSISTANT_PORT}/v1`,
        ASSISTANT_MODEL: "fake-model",
        ASSISTANT_API_KEY: "e2e-key",
        ASSISTANT_TIMEOUT_MS: "1500",
        ASSISTANT_MAX_PROMPT_CHARS: "500",
      },
    },
  ],
});
