/**
 * Accessibility and fit of the key pages (issue 14; docs/product/interface.md): axe finds no
 * serious or critical violation on 23 key pages, in the light and the dark scheme, and none of
 * them scrolls sideways on a 390 px or a 320 px phone. Needs JavaScript (axe runs in the page).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { DEMO, authenticate, expect, test } from "./fixtures";
import { sidewaysOverflow } from "./overflow";

/** Pages a visitor sees signed out. */
const SIGNED_OUT = ["/auth/login", "/auth/register", "/auth/password/forgot"];
/** Pages seen signed in as the demo admin (who may open every one of them). */
const SIGNED_IN = [
  "/",
  "/post/1",
  "/articles",
  "/search?q=%D0%BF%D1%80%D0%BE%D0%B4%D0%B0%D0%BC",
  "/leaderboard",
  "/blacklist",
  "/claims",
  "/services/guarantor",
  "/faq",
  "/music",
  "/profile/2",
  "/profile",
  "/profile/wallet",
  "/profile/deposit",
  "/profile/notifications",
  "/profile/conversations",
  "/profile/settings",
  "/posts/new",
  "/ads",
  "/admin",
  "/admin/log",
  "/admin/reports",
  "/admin/members/2",
];

/** Serious and critical axe violations on the page as shown, one line each (rule, impact, first places). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(" "))
          .join(" | ")}`,
    );
}

async function checkPages(page: Page, paths: string[], scheme: "light" | "dark") {
  const found: string[] = [];
  await page.emulateMedia({ colorScheme: scheme });
  for (const path of paths) {
    await page.goto(path);
    await expect(page.locator("main#main")).toBeVisible();
    for (const line of await seriousViolations(page)) found.push(`${scheme} ${path}: ${line}`);
  }
  expect(found, found.join("\n")).toEqual([]);
}

// The member's pages are checked in groups of six, each its own journey: axe takes one to three
// seconds a page, and a single 23-page journey passed its four minutes on a loaded 2-core CI run.
const GROUP_SIZE = 6;
const SIGNED_IN_GROUPS = Array.from({ length: Math.ceil(SIGNED_IN.length / GROUP_SIZE) }, (_, index) =>
  SIGNED_IN.slice(index * GROUP_SIZE, (index + 1) * GROUP_SIZE),
);

for (const scheme of ["light", "dark"] as const) {
  test(`axe finds no serious or critical violation on the signed-out pages, ${scheme} @js-only`, async ({ page }) => {
    await checkPages(page, SIGNED_OUT, scheme);
  });

  SIGNED_IN_GROUPS.forEach((group, index) => {
    test(`axe finds no serious or critical violation on the key pages of a member (${index + 1}/${SIGNED_IN_GROUPS.length}: ${group[0]} …), ${scheme} @js-only`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await authenticate(page, DEMO.admin);
      await checkPages(page, group, scheme);
    });
  });
}

for (const width of [390, 320]) {
  test(`no key page scrolls sideways on a ${width} px phone @js-only`, async ({ page }) => {
    test.setTimeout(240_000);
    await authenticate(page, DEMO.admin);
    await page.setViewportSize({ width, height: width === 320 ? 640 : 844 });
    const wide: string[] = [];
    for (const path of [...SIGNED_IN]) {
      await page.goto(path);
      await expect(page.locator("main#main")).toBeVisible();
      const { scrollWidth, clientWidth, culprits } = await sidewaysOverflow(page, 3);
      if (scrollWidth > clientWidth) wide.push(`${path}: ${scrollWidth} > ${clientWidth}: ${culprits.join(" | ")}`);
    }
    expect(wide, wide.join("\n")).toEqual([]);
  });
}
