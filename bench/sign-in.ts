/** Signing in for the benchmarks that measure a member's pages. */
/** Signs the demo admin in (Auth.js-style call) and returns the session's Cookie header. */
export async function signIn(site: string): Promise<string> {
  const csrfResponse = await fetch(`${site}/api/auth/csrf`);
  const csrfCookie = csrfResponse.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const response = await fetch(`${site}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { Cookie: csrfCookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email: "admin@shodka.local", password: "admin12345", json: "true", callbackUrl: "/" }),
    redirect: "manual",
  });
  const session = response.headers.getSetCookie().map((line) => line.split(";")[0]);
  if (session.length === 0) throw new Error(`sign-in failed: ${response.status}`);
  return [csrfCookie, ...session].join("; ");
}
