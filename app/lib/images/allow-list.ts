/**
 * Which `url` values the image endpoint may load (issue 6 item 6: "refusing any host outside
 * the allow-list (no server-side request forgery)"). Pure, so it is tested without a network.
 *
 * - A path on this site (`/uploads/…`, `/images/…`, anything in the public directory), or an
 *   absolute URL on the site's own origin, is read from disk, never fetched.
 * - An absolute http(s) URL is fetched only when its host is on IMAGE_ALLOWED_HOSTS.
 * - Everything else (other schemes, credentials in the URL, `//host`, dot segments, control
 *   characters) is refused before any request is made.
 */
import { ValidationFailed } from "../errors";

/** Where an image comes from: a path on this site (decoded, starting with "/") or an allowed remote URL. */
export type ImageSource = { kind: "local"; path: string } | { kind: "remote"; url: URL };

/** The longest `url` accepted, in characters. */
export const MAX_IMAGE_URL_LENGTH = 2048;

/**
 * True when `url`'s host (with its port when not the scheme's default) matches an entry of
 * `allowedHosts` (IMAGE_ALLOWED_HOSTS as parseAllowedHosts of config.server.js reads it): exactly, or as a subdomain of a `*.` entry. An
 * entry without a port matches the default port only.
 */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const host = url.host.toLowerCase();
  return allowedHosts.some((entry) => (entry.startsWith("*.") ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry));
}

const refuse = (message: string, code: string) => new ValidationFailed(message, { url: [message] }, code);

/**
 * Classifies the endpoint's `url` parameter. `siteOrigin` is this site's origin (PUBLIC_URL):
 * absolute URLs on it are read like paths. Throws ValidationFailed (400) with code
 * `invalid_image_url` for a malformed, non-http(s) or dot-segment URL, and
 * `image_host_not_allowed` for a host outside the allow-list.
 */
export function classifyImageUrl(raw: string, siteOrigin: string, allowedHosts: readonly string[]): ImageSource {
  if (!raw || raw.length > MAX_IMAGE_URL_LENGTH || /[\u0000-\u001f\u007f\\]/.test(raw)) {
    throw refuse("Некорректная ссылка на изображение", "invalid_image_url");
  }
  if (raw.startsWith("/") && !raw.startsWith("//")) return { kind: "local", path: localPath(raw) };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("Некорректная ссылка на изображение", "invalid_image_url");
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password) {
    throw refuse("Изображения загружаются только по ссылкам http и https", "invalid_image_url");
  }
  if (hasDotSegment(rawPath(raw))) throw refuse("Некорректная ссылка на изображение", "invalid_image_url");
  if (url.origin === new URL(siteOrigin).origin) return { kind: "local", path: localPath(url.pathname) };
  if (!isAllowedHost(url, allowedHosts)) throw refuse("Изображения с этого сайта не загружаются", "image_host_not_allowed");
  return { kind: "remote", url };
}

/** The decoded path of a site-relative URL, refusing `.`/`..` segments (also percent-encoded). */
function localPath(raw: string): string {
  const pathname = raw.replace(/[?#].*$/, "");
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    throw refuse("Некорректная ссылка на изображение", "invalid_image_url");
  }
  if (hasDotSegment(pathname) || hasDotSegment(decoded) || /[\u0000-\u001f\\]/.test(decoded)) {
    throw refuse("Некорректная ссылка на изображение", "invalid_image_url");
  }
  return decoded;
}

/** The path part of an absolute URL as written (WHATWG parsing would already have removed dot segments). */
function rawPath(raw: string): string {
  const afterScheme = raw.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "");
  return afterScheme.replace(/[?#].*$/, "");
}

function hasDotSegment(pathname: string): boolean {
  return pathname.split("/").some((segment) => {
    const lower = segment.toLowerCase();
    return lower === "." || lower === ".." || lower === "%2e" || lower === "%2e%2e" || lower === ".%2e" || lower === "%2e.";
  });
}
