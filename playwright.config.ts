/**
 * Journeys in Debian's Chromium (/usr/bin/chromium; never a downloaded browser), once with
 * JavaScript and once without, against the built server on a fresh demo database.
 */
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3199);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI
    ? [["list"], ["json", { outputFile: "tests/.tmp/playwright.json" }]]
    : [["list"], ["json", { outputFile: "tests/.tmp/playwright.json" }]],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: "ru-RU",
    timezoneId: "Europe/Moscow",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
    trace: "retain-on-failure",
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    command: `rm -rf tests/.tmp/e2e-data-${PORT} && node server/index.js`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: `tests/.tmp/e2e-data-${PORT}`,
      SEED_DEMO: "1",
      TELEGRAM_BOT_TOKEN: "7000002:e2e-test-token",
    },
  },
});
