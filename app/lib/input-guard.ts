/**
 * One gate for characters no input may carry (issue 13 item 3): NUL (U+0000), which PostgreSQL
 * refuses in text and jsonb — a NUL in a login, a token or a query reached SQL and answered 500 —
 * and lone UTF-16 surrogates, which jsonb refuses (app/lib/text.ts isCleanText). The server checks
 * every request's path, query and body here before any route runs (server/app.ts), and the
 * websocket every frame (realtime/ws.server.ts), so no code behind them meets such a character.
 */
import { isCleanText } from "./text";

export { INVALID_TEXT_CODE, INVALID_TEXT_MESSAGE } from "./text";

/** True when `value` (a string, or JSON-like arrays and objects, keys included) holds a forbidden character anywhere. */
export function holdsForbiddenText(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return !isCleanText(value);
  if (depth > 64 || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((item) => holdsForbiddenText(item, depth + 1));
  return Object.entries(value).some(([key, item]) => !isCleanText(key) || holdsForbiddenText(item, depth + 1));
}

/** True when the URL's path (decoded) or query (decoded names and values) holds a forbidden character. */
export function urlHoldsForbiddenText(url: URL): boolean {
  if (/%00/i.test(url.pathname) || url.pathname.includes("\u0000")) return true;
  for (const [name, value] of url.searchParams) if (!isCleanText(name) || !isCleanText(value)) return true;
  return false;
}

/**
 * True when a request body of `contentType` holds a forbidden character in what the app will read
 * as text: the fields of a form (url-encoded or multipart; file contents are binary and not
 * looked at, their names are), the strings of a JSON document, or any other text body. A body that
 * does not parse is left to the route, which refuses it its own way.
 */
export async function bodyHoldsForbiddenText(contentType: string | null, body: Uint8Array): Promise<boolean> {
  if (body.byteLength === 0) return false;
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") {
    for (const [name, value] of new URLSearchParams(new TextDecoder().decode(body))) {
      if (!isCleanText(name) || !isCleanText(value)) return true;
    }
    return false;
  }
  if (type === "multipart/form-data") {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { "Content-Type": contentType! } }).formData();
    } catch {
      return false;
    }
    for (const [name, value] of form) {
      if (!isCleanText(name) || !isCleanText(typeof value === "string" ? value : value.name)) return true;
    }
    return false;
  }
  if (type === "application/json" || type.endsWith("+json")) {
    const text = new TextDecoder().decode(body);
    try {
      return holdsForbiddenText(JSON.parse(text));
    } catch {
      return text.includes("\u0000");
    }
  }
  if (type.startsWith("text/")) return new TextDecoder().decode(body).includes("\u0000");
  return false;
}
