/**
 * Forms post to actions that answer a plain form post (no JavaScript) with a redirect back,
 * and a fetcher with data, so the page revalidates in place instead of navigating. The
 * marker field, rendered only after hydration, tells the two apart.
 */
import type { FetcherWithComponents } from "react-router";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";

/** The hidden field a fetcher sends (`via=fetcher`). */
export const VIA_FETCHER = { name: "via", value: "fetcher" } as const;

/** True when the form was sent by a fetcher (JavaScript running), not a plain form post. */
export function sentByFetcher(form: FormData): boolean {
  return form.get(VIA_FETCHER.name) === VIA_FETCHER.value;
}

/** The marker input, rendered only once JavaScript has hydrated the page. */
export function FetcherMarker() {
  const hydrated = useHydrated();
  return hydrated ? <input type="hidden" name={VIA_FETCHER.name} value={VIA_FETCHER.value} /> : null;
}

/**
 * Posts `fields` to `action` through `fetcher` as its form would with JavaScript: with the page's
 * CSRF token and the marker. For a button of a form the page shares (decision 0039), whose click
 * sends its own fields through its own fetcher, so its item updates at once.
 */
export function useFetcherPost(fetcher: Pick<FetcherWithComponents<unknown>, "submit">): (action: string, fields: Record<string, string>) => void {
  const csrf = useAuthenticityToken();
  return (action, fields) => {
    void fetcher.submit({ csrf, ...fields, [VIA_FETCHER.name]: VIA_FETCHER.value }, { method: "post", action });
  };
}
