/**
 * The JavaScript a page makes the browser fetch before it can hydrate (issue 12's page weight:
 * the home page ≤ 150 KB of JavaScript gzip): every module the HTML names (the starter's list of
 * modules and the module script's imports, docs/decisions/0057), measured as the server sends each
 * one to a browser that accepts gzip (the issue's unit) and to one that accepts Brotli too (Chrome).
 */
import { get } from "node:http";

/** The distinct /assets/…js paths the page's HTML loads at first, in order of appearance. */
function scriptsOf(html: string): string[] {
  // Quoted in the starter's arguments, and with escaped quotes inside the module script's text there.
  const named = [...html.matchAll(/\\?"(\/assets\/[^"\\]+\.js)\\?"/g)];
  return [...new Set(named.map((match) => match[1]!))];
}

/**
 * Bytes on the wire of `path` for a browser sending `Accept-Encoding: encoding` (the body as
 * sent, not inflated): "gzip" is the unit, "gzip, deflate, br" what Chrome sends.
 */
export function bytesSent(site: string, path: string, encoding = "gzip"): Promise<number> {
  return new Promise((resolve, reject) => {
    get(site + path, { headers: { "Accept-Encoding": encoding } }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => (response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${path}: ${response.statusCode}`))));
      response.on("error", reject);
    }).on("error", reject);
  });
}

/** The page's first JavaScript: how many files, and their bytes as sent with gzip and as sent to Chrome (Brotli). */
export async function pageScripts(site: string, path: string): Promise<{ files: number; bytes: number; chromeBytes: number }> {
  const scripts = scriptsOf(await (await fetch(site + path)).text());
  let bytes = 0;
  let chromeBytes = 0;
  for (const script of scripts) {
    bytes += await bytesSent(site, script);
    chromeBytes += await bytesSent(site, script, "gzip, deflate, br");
  }
  return { files: scripts.length, bytes, chromeBytes };
}
