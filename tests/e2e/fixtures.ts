/** Playwright fixtures: a console error or an uncaught page error fails the test (docs/product/engineering.md#tests). */
import { test as base, expect, type Browser, type Page } from "@playwright/test";

/** Collects what `page` logs as errors. A 4xx answer is the server refusing bad input or a missing page, which tests assert through what the page shows; anything else logged as an error is a bug. */
function watchErrors(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

export const test = base.extend<{ page: Page }>({
  page: async ({ page }, use) => {
    const problems = watchErrors(page);
    await use(page);
    expect(problems, "the page logged errors").toEqual([]);
  },
});

export { expect };

/**
 * Another person's page in its own browser context with the project's settings (JavaScript on
 * or off), failing the test on console errors as the fixture page does when closed.
 */
export async function openContext(browser: Browser) {
  const use = test.info().project.use;
  const context = await browser.newContext({ baseURL: use.baseURL, locale: use.locale, timezoneId: use.timezoneId, javaScriptEnabled: use.javaScriptEnabled });
  const page = await context.newPage();
  const problems = watchErrors(page);
  return {
    page,
    async close() {
      await context.close();
      expect(problems, "the other page logged errors").toEqual([]);
    },
  };
}

/** The seeded accounts the README gives (demo data). */
export const DEMO = {
  admin: { email: "admin@shodka.local", password: "admin12345", username: "admin" },
  moderator: { email: "moderator@shodka.local", password: "moder12345", username: "dark_knight77" },
} as const;

/** Signs `who` in through /auth/login and waits for their name in the header. */
export async function signIn(page: Page, who: { email: string; password: string; username: string }) {
  await page.goto("/auth/login");
  await page.getByLabel("Email или имя пользователя").fill(who.email);
  await page.getByLabel("Пароль").fill(who.password);
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page.getByTestId("header-profile")).toContainText(who.username);
}

/** Signs out with the header's button and waits for the «Войти» link. */
export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Выйти" }).click();
  await expect(page.getByRole("link", { name: "Войти" })).toBeVisible();
}

/** A unique member for one journey. */
export function newMember() {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return { username: `e2e_${id}`, email: `e2e_${id}@example.test`, password: "очень-надёжный-пароль" };
}

export type Member = ReturnType<typeof newMember> & { id: number };

/** Registers `member` through /auth/register (leaving the page signed in) and returns it with its id. */
export async function registerMember(page: Page, member = newMember()): Promise<Member> {
  await page.goto("/auth/register");
  await page.getByLabel("Имя пользователя").fill(member.username);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Пароль").fill(member.password);
  await page.getByRole("button", { name: "Зарегистрироваться" }).click();
  await expect(page.getByTestId("header-profile")).toContainText(member.username);
  const me = (await (await page.request.get("/api/auth/me")).json()) as { user: { id: number } };
  return { ...member, id: me.user.id };
}
