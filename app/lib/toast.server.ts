/**
 * One-shot toasts carried across a redirect in a short-lived cookie (the epic-stack way),
 * so "Пост опубликован" shows after a form post even with JavaScript off.
 */
import { createCookieSessionStorage, redirect } from "react-router";
import { getConfig } from "./config.server";

export interface FlashToast {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
}

let storage: ReturnType<typeof createCookieSessionStorage<{ toast?: FlashToast }>> | undefined;

function toastStorage() {
  storage ??= createCookieSessionStorage<{ toast?: FlashToast }>({
    cookie: {
      name: "toast",
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secrets: [getConfig().sessionSecret],
    },
  });
  return storage;
}

/** A redirect that shows `toast` on the next page; extra Set-Cookie headers may be passed. */
export async function redirectWithToast(url: string, toast: FlashToast, setCookies: string[] = []): Promise<Response> {
  const session = await toastStorage().getSession();
  session.flash("toast", toast);
  const headers = new Headers();
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", await toastStorage().commitSession(session));
  return redirect(url, { headers });
}

/** Reads the pending toast and the Set-Cookie header that clears it (null when none was pending). */
export async function takeToast(request: Request): Promise<{ toast: FlashToast | null; setCookie: string | null }> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes("toast=")) return { toast: null, setCookie: null };
  const session = await toastStorage().getSession(cookieHeader);
  const toast = session.get("toast") ?? null;
  return { toast, setCookie: toast ? await toastStorage().destroySession(session) : null };
}
