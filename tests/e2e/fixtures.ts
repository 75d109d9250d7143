/** Playwright fixtures: a console error or an uncaught page error fails the test (docs/product/engineering.md#tests). */
import { test as base, expect, type Browser, type Locator, type Page, type Route } from "@playwright/test";
import { classConflicts } from "../setup/class-conflicts";
import { decodeHtml } from "../setup/html";
import { waitForTurn } from "./turns";

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

/**
 * The class attributes of the page a journey ends on that carry two utilities setting the same
 * thing (tests/setup/class-conflicts.ts, decision 0045). A page closed or navigating at that moment
 * has nothing to check.
 */
async function conflictsOnScreen(page: Page): Promise<string[]> {
  if (page.isClosed()) return [];
  const classes = await page.evaluate(() => [...document.querySelectorAll("[class]")].map((element) => element.getAttribute("class") ?? "")).catch(() => []);
  return classConflicts(classes);
}

/**
 * Each browser context poses as its own client address (the server trusts X-Forwarded-For from
 * loopback, as behind a proxy), so the per-address limits — registrations, sign-in failures, live
 * connections (docs/product/limits.md#rate-limits) — count each journey apart, as for real visitors.
 */
export function clientAddressHeaders(): Record<string, string> {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return { "X-Forwarded-For": `10.${octet()}.${octet()}.${octet()}` };
}

/**
 * In the project with JavaScript, makes `page.goto` and `page.reload` return once the page they
 * opened has hydrated, as a person waits for a page to be ready before using it: a click before
 * that takes the page's no-JavaScript way (a form posted as a page, a link followed), and a journey
 * asserting what the script does would fail now and then (CI, 2026-12-05). Only an HTML answer is
 * waited for; `waitUntil: "commit"` opts out, for the journeys that act before the scripts start.
 */
function navigationsWaitForHydration(page: Page): void {
  if (!test.info().project.use.javaScriptEnabled) return;
  const ready = async (response: Awaited<ReturnType<Page["goto"]>>, waitUntil: string | undefined) => {
    if (waitUntil !== "commit" && response?.headers()["content-type"]?.startsWith("text/html")) await hydrated(page);
    return response;
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => ready(await goto(url, options), options?.waitUntil);
  page.reload = async (options) => ready(await reload(options), options?.waitUntil);
}

export const test = base.extend<{ page: Page; turn: void }>({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, ...clientAddressHeaders() });
  },
  // Journeys run side by side; the few tagged @alone or @shares:<name> wait for their turn (turns.ts).
  turn: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; the turn has none.
    async ({}, use, testInfo) => {
      const release = await waitForTurn(testInfo);
      try {
        await use();
      } finally {
        release();
      }
    },
    { auto: true },
  ],
  page: async ({ page, turn }, use) => {
    void turn;
    const problems = watchErrors(page);
    navigationsWaitForHydration(page);
    await use(page);
    expect(problems, "the page logged errors").toEqual([]);
    expect(await conflictsOnScreen(page), "elements with conflicting Tailwind utilities").toEqual([]);
  },
});

export { expect };

/**
 * Saves a full-page screenshot of `page` at `path`: the record of what a journey saw, for a person
 * to look at, not an assertion. Chromium's capture now and then refuses with "Unable to capture
 * screenshot" while the page is fine (CI, 2026-12-05, a confirmation step in the no-JavaScript
 * project); then it is asked once more, and a second refusal fails the journey.
 */
export async function recordScreenshot(page: Page, path: string): Promise<void> {
  try {
    await page.screenshot({ path, fullPage: true });
  } catch (error) {
    if (!String(error).includes("Unable to capture screenshot")) throw error;
    await page.screenshot({ path, fullPage: true });
  }
}

/**
 * Another person's page in its own browser context with the project's settings (JavaScript on
 * or off), failing the test on console errors as the fixture page does when closed.
 */
export async function openContext(browser: Browser, options: { timezoneId?: string } = {}) {
  const use = test.info().project.use;
  const context = await browser.newContext({
    baseURL: use.baseURL,
    locale: use.locale,
    timezoneId: options.timezoneId ?? use.timezoneId,
    javaScriptEnabled: use.javaScriptEnabled,
    extraHTTPHeaders: clientAddressHeaders(),
  });
  const page = await context.newPage();
  const problems = watchErrors(page);
  navigationsWaitForHydration(page);
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
  member: { email: "demo@shodka.local", password: "demo12345", username: "demo" },
} as const;

/**
 * Signs `who` in through the /auth/login page, as a person does, and waits for their name in the
 * header. For journeys about signing in; elsewhere `authenticate` is quicker.
 */
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

/**
 * Posts one of the site's own sign-up or sign-in forms over HTTP with the page's context, as its
 * browser would (the context's cookies, client address and User-Agent; the hidden fields the
 * page carries: CSRF token, honeypot), without drawing the page: the session cookie lands in the
 * context. The welcome toast meant for the next page is dropped, so no later page shows it.
 */
async function postAuthForm(page: Page, path: "/auth/register" | "/auth/login", fields: Record<string, string>) {
  const request = page.context().request;
  const form = await request.get(path);
  expect(form.status(), `GET ${path}`).toBe(200);
  const carried: Record<string, string> = {};
  for (const [tag] of (await form.text()).matchAll(/<input\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(tag)?.[1];
    const value = /\bvalue="([^"]*)"/.exec(tag)?.[1];
    if (name !== undefined && value !== undefined) carried[name] ??= decodeHtml(value);
  }
  const answer = await request.post(path, { form: { ...carried, ...fields }, maxRedirects: 0 });
  expect(answer.status(), `POST ${path} answered ${answer.status()}: ${answer.status() === 302 ? "" : await answer.text()}`).toBe(302);
  await page.context().clearCookies({ name: "toast" });
}

/**
 * Registers `member` by posting the registration form over HTTP (`postAuthForm`): the page's
 * context is then signed in, the page itself not navigated. Returns the member with its id.
 * The journeys about registering fill the form in themselves (journey.spec.ts).
 */
export async function registerMember(page: Page, member = newMember()): Promise<Member> {
  await postAuthForm(page, "/auth/register", { username: member.username, email: member.email, password: member.password });
  const me = (await (await page.context().request.get("/api/auth/me")).json()) as { user: { id: number; name: string } };
  expect(me.user.name, "the member signed in after registering").toBe(member.username);
  return { ...member, id: me.user.id };
}

/**
 * Signs `who` in by posting the sign-in form over HTTP (`postAuthForm`), for journeys whose
 * subject is something else; the page is not navigated. `signIn` goes through the page.
 */
export async function authenticate(page: Page, who: { email: string; password: string; username: string }) {
  await postAuthForm(page, "/auth/login", { email: who.email, password: who.password });
}

/**
 * Clicks `button` (a form's submit button) and resolves once the server has answered the form's POST
 * with a success (a redirect without JavaScript, the action's data with it). Controls that answer in place
 * (optimistic UI) change before anything is saved: a journey that then loads a page, in this browser or
 * another, waits for this first; a reload before the answer would even cancel the request.
 */
export async function clickAndSave(button: Locator, urlPart?: string): Promise<void> {
  const page = button.page();
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && (urlPart === undefined || r.url().includes(urlPart)));
  await button.click();
  expect((await answered).status()).toBeLessThan(400);
}

/**
 * Holds every script request of `page` until the returned function is called: the server's HTML
 * shows, nothing hydrates, so a journey can act on the page as it is before its scripts run.
 */
export async function holdScripts(page: Page): Promise<() => Promise<void>> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.js(\?|$)/, async (route: Route) => {
    await gate;
    // The document the request came from may be gone by now (it was left): nothing to answer.
    await route.continue().catch(() => undefined);
  });
  return async () => {
    release();
    await page.unrouteAll({ behavior: "wait" });
  };
}

/**
 * Waits until React has hydrated `page` and run the first effects (app/root.tsx marks <html> with
 * data-hydrated). The data router on the window is not enough: React Router puts it there when
 * hydration begins, before the page's effects have attached their listeners.
 */
export const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor({ state: "attached" });

/** Waits as `hydrated` does in the project with JavaScript; returns at once in the one without. */
export async function hydratedWithScripts(page: Page): Promise<void> {
  if (test.info().project.use.javaScriptEnabled) await hydrated(page);
}
