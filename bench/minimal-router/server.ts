/**
 * The minimal page's own server (bench/http's and bench/lighthouse's baseline): built into
 * build/server/index.js with react-router's production bundle, like the site's server/app.ts, and
 * run in a process of its own with NODE_ENV=production (React's production build), as the site
 * is. Serves its built scripts under /assets compressed as the site's are (Brotli at quality 11,
 * else gzip at level 9, made once per file: docs/decisions/0042), so a browser can load the page
 * as it loads the site's. Under /bytes/<name> it answers, straight from node:http, the bytes of a
 * page bench/http left in BENCH_MARKUP_DIR as <name>.html: the floor of sending that page at all.
 * Listens on PORT and prints "listening" once it does.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { createRequestListener } from "@react-router/node";
import * as build from "virtual:react-router/server-build";

const assetsDir = fileURLToPath(new URL("../client/assets/", import.meta.url));
/**
 * `make` of the bytes of `file`, read and made once and kept in `cache` under `key`; null (kept
 * too) when there is no such file.
 */
function readOnce<T>(cache: Map<string, T | null>, key: string, file: string, make: (body: Buffer) => T): T | null {
  if (!cache.has(key)) {
    let body: Buffer | null = null;
    try {
      body = readFileSync(file);
    } catch {
      // No such file: null.
    }
    cache.set(key, body && make(body));
  }
  return cache.get(key) ?? null;
}

const compressed = new Map<string, { br: Buffer; gzip: Buffer } | null>();

/** Answers GET /assets/<file> from the client build, or 404. */
function serveAsset(request: IncomingMessage, response: ServerResponse, pathname: string) {
  const name = path.basename(pathname);
  const file = readOnce(compressed, name, path.join(assetsDir, name), (body) => ({
    br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(body, { level: 9 }),
  }));
  if (!file) return void response.writeHead(404).end();
  const br = /\bbr\b/.test(String(request.headers["accept-encoding"] ?? ""));
  response.writeHead(200, {
    "Content-Type": name.endsWith(".css") ? "text/css" : "text/javascript",
    "Content-Encoding": br ? "br" : "gzip",
    "Cache-Control": "public, max-age=31536000, immutable",
  });
  response.end(br ? file.br : file.gzip);
}

const bytes = new Map<string, Buffer | null>();

/** Answers GET /bytes/<name> with BENCH_MARKUP_DIR/<name>.html as it is, or 404. */
function serveBytes(response: ServerResponse, pathname: string) {
  const name = path.basename(pathname);
  const body = readOnce(bytes, name, path.join(process.env.BENCH_MARKUP_DIR ?? "", `${name}.html`), (read) => read);
  if (!body) return void response.writeHead(404).end();
  response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": String(body.length) });
  response.end(body);
}

const listener = createRequestListener({ build, mode: "production" });
const server = createServer((request, response) => {
  const pathname = (request.url ?? "/").split("?")[0]!;
  if (pathname.startsWith("/assets/")) serveAsset(request, response, pathname);
  else if (pathname.startsWith("/bytes/")) serveBytes(response, pathname);
  // A browser asks for it; the app has none, and the router would log each miss as an error.
  else if (pathname === "/favicon.ico") response.writeHead(404).end();
  else void listener(request, response);
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
