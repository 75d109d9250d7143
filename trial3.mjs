import { chromium } from "playwright-core";
const base = "http://127.0.0.1:3412";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const ctx = await browser.newContext({ locale: "ru-RU", javaScriptEnabled: false, viewport: { width: 390, height: 844 }, colorScheme: "dark" });
const page = await ctx.newPage();
await page.goto(base + "/auth/login");
await page.getByLabel("Email или имя пользователя").fill("demo@shodka.local");
await page.getByLabel("Пароль", { exact: true }).fill("demo12345");
await page.getByRole("button", { name: "Войти" }).click();
await page.waitForURL((u) => !u.pathname.startsWith("/auth/login"));
const paths = process.argv.slice(2);
for (const p of paths) {
  const r = await page.goto(base + p);
  const name = p.replace(/[^a-z0-9]+/gi, "_");
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
  console.log(p, r.status());
}
await browser.close();
