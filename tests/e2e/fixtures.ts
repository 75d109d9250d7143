/** Playwright fixtures: a console error or an uncaught page error fails the test (HOUSE_STYLE.md Tests). */
import { test as base, expect, type Page } from "@playwright/test";

export const test = base.extend<{ page: Page }>({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      // A 4xx answer is the server refusing bad input or a missing page, which tests assert
      // through what the page shows; anything else logged as an error is a bug.
      if (message.type() === "error" && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) {
        problems.push(`console: ${message.text()}`);
      }
    });
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    await use(page);
    expect(problems, "the page logged errors").toEqual([]);
  },
});

export { expect };

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
