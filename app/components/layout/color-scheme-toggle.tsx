/**
 * The header's colour-scheme toggle (docs/product/interface.md#dark-mode): one button that steps
 * system → light → dark → system. It is a form posting to /settings/color-scheme, so it works
 * without JavaScript (the action sets the cookie and redirects back); with JavaScript it posts
 * through a fetcher and <html> switches at once (see useColorScheme).
 */
import { useFetcher, useFetchers, useLocation } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { COLOR_SCHEME_LABELS, COLOR_SCHEMES, parseColorScheme, type ColorScheme } from "~/lib/color-scheme";
import { useRootData } from "~/root-data";

/** The form action of the toggle. */
export const COLOR_SCHEME_ACTION = "/settings/color-scheme";

/** The sprite's icon of each scheme (app/lib/icons.ts): the toggle is on every page. */
const ICONS = { system: "monitor", light: "sun", dark: "moon" } as const;

/** The scheme after `scheme` in the toggle's cycle. */
export function nextColorScheme(scheme: ColorScheme): ColorScheme {
  return COLOR_SCHEMES[(COLOR_SCHEMES.indexOf(scheme) + 1) % COLOR_SCHEMES.length]!;
}

/** The reader's scheme: a toggle post in flight wins (optimistic), else the root's cookie value. */
export function useColorScheme(): ColorScheme {
  const pending = useFetchers().find((fetcher) => fetcher.formAction === COLOR_SCHEME_ACTION && fetcher.formData);
  const stored = useRootData()?.colorScheme;
  return pending ? parseColorScheme(pending.formData?.get("scheme")) : parseColorScheme(stored);
}

export function ColorSchemeToggle() {
  const fetcher = useFetcher({ key: "color-scheme" });
  const location = useLocation();
  const scheme = useColorScheme();
  const next = nextColorScheme(scheme);
  const label = `Тема: ${COLOR_SCHEME_LABELS[scheme].toLowerCase()}. Включить: ${COLOR_SCHEME_LABELS[next].toLowerCase()}`;
  return (
    <fetcher.Form method="post" action={COLOR_SCHEME_ACTION} data-testid="color-scheme-toggle" data-scheme={scheme}>
      <AuthenticityTokenInput />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <Button type="submit" name="scheme" value={next} variant="ghost" size="icon" aria-label={label} title={label} className="size-11">
        <Icon name={ICONS[scheme]} className="size-5" />
      </Button>
    </fetcher.Form>
  );
}
