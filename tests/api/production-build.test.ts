/**
 * The production server runs production builds only (docs/product/engineering.md#speed; issue
 * 12): NODE_ENV=production, and react-router's production bundle, not its development one,
 * which logs dev warnings and costs CPU on every render. The document's head asks for what the
 * first paint needs first (docs/decisions/0032).
 */
import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync, gzipSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../setup/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BUILD_DIR = path.resolve(ROOT, process.env.BUILD_DIR ?? "build");
const ASSETS = path.join(BUILD_DIR, "client/assets");

/** The browser build's script files whose code contains `text`. */
function chunksHolding(text: string): string[] {
  return readdirSync(ASSETS).filter((file) => file.endsWith(".js") && readFileSync(path.join(ASSETS, file), "utf8").includes(text));
}

describe("the production server (issue 12)", () => {
  let server: RunningServer;
  /** The distinct /assets/…js files `page`'s HTML names: its module preloads and its scripts' imports. */
  async function firstScripts(page: string): Promise<string[]> {
    const html = await (await fetch(server.baseUrl + page)).text();
    return [...new Set([...html.matchAll(/"(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!))];
  }
  /** The answer to `method` `url` with `Accept-Encoding: encoding`: its status, headers and body as sent (not inflated). */
  function requestRaw(method: string, url: string, encoding: string) {
    return new Promise<{ status: number; encoding?: string; cacheControl?: string; body: Buffer }>((resolve, reject) => {
      request(server.baseUrl + url, { method, headers: { "Accept-Encoding": encoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            encoding: response.headers["content-encoding"],
            cacheControl: response.headers["cache-control"],
            body: Buffer.concat(chunks),
          }),
        );
      })
        .on("error", reject)
        .end();
    });
  }
  beforeAll(async () => {
    server = await startServer();
  }, 90_000);
  afterAll(() => server?.stop());

  it("runs with NODE_ENV=production", () => {
    const listening = server
      .output()
      .split("\n")
      .find((line) => line.includes("Server is listening"));
    expect(listening).toContain('"nodeEnv":"production"');
  });

  it("serves a missing page without react-router's development warnings", async () => {
    const response = await fetch(`${server.baseUrl}/no-such-page-${Date.now()}`);
    expect(response.status).toBe(404);
    await response.text();
    // The development build warns `No routes matched location "..."` on every unmatched render.
    expect(server.output()).not.toContain("No routes matched location");
  });

  it("names a 32 px PNG as the tab's icon, never an SVG, and /favicon.ico leads to it (docs/decisions/0059)", async () => {
    const html = await (await fetch(server.baseUrl + "/")).text();
    const icons = [...html.matchAll(/<link rel="icon"[^>]*>/g)].map((match) => match[0]);
    expect(icons).toHaveLength(1);
    expect(icons[0]).toContain('type="image/png"');
    const href = icons[0]!.match(/href="([^"]+)"/)![1]!;
    const icon = await fetch(server.baseUrl + href);
    expect(icon.headers.get("content-type")).toBe("image/png");
    expect(await sharp(Buffer.from(await icon.arrayBuffer())).metadata()).toMatchObject({ format: "png", width: 32, height: 32 });
    const touchIcon = html.match(/<link rel="apple-touch-icon" href="([^"]+)"/)?.[1];
    expect(touchIcon).toBeDefined();
    expect(await sharp(Buffer.from(await (await fetch(server.baseUrl + touchIcon)).arrayBuffer())).metadata()).toMatchObject({ width: 180, height: 180 });
    const legacy = await fetch(server.baseUrl + "/favicon.ico", { redirect: "manual" });
    expect(legacy.status).toBe(301);
    expect(legacy.headers.get("location")).toBe(href);
  });

  it("asks for the stylesheet before any script, and for the home page's background at once", async () => {
    const html = await (await fetch(`${server.baseUrl}/`)).text();
    const head = html.slice(0, html.indexOf("</head>"));
    const stylesheet = head.search(/<link rel="stylesheet" href="\/assets\/[^"]+\.css"/);
    const firstScript = head.search(/<link rel="modulepreload"|<script /);
    expect(stylesheet).toBeGreaterThan(-1);
    expect(stylesheet).toBeLessThan(firstScript);
    // The demo's background (the page's largest paint) is preloaded ahead of the stylesheet that shows it.
    const background = head.search(/<link rel="preload" href="\/images\/backgrounds\/main\.svg" as="image" fetchPriority="high"\/>/);
    expect(background).toBeGreaterThan(-1);
    expect(background).toBeLessThan(stylesheet);
    // Every route's module is listed up front (routeDiscovery "initial"): no manifest inline in the page.
    expect(html).not.toContain("window.__reactRouterManifest");
  });

  it("asks for the scripts only from a starter that waits for the first paint, naming modules the server has (docs/decisions/0057)", async () => {
    for (const path of ["/", "/post/1"]) {
      const html = await (await fetch(`${server.baseUrl}${path}`)).text();
      expect(html, `${path} preloads a module itself`).not.toContain('<link rel="modulepreload"');
      expect(html, `${path} imports a module itself`).not.toMatch(/<script[^>]* type="module"/);
      const starter = /<script nonce="[^"]+">\(function\(M,C\).*?"paint".*?\}\)\((\[.*?)\)<\/script>/s.exec(html);
      expect(starter, `${path}'s starter`).not.toBeNull();
      const [modules, code] = JSON.parse(`[${starter![1]}]`) as [string[], string];
      expect(modules.length, `${path}'s modules`).toBeGreaterThan(5);
      expect(code).toContain("window.__reactRouterRouteModules");
      for (const module of modules) {
        const response = await fetch(server.baseUrl + module);
        expect(response.status, module).toBe(200);
        expect(response.headers.get("content-type"), module).toMatch(/javascript/);
      }
    }
  });

  it("asks for the text's fonts and the rouble sign's with the page itself, so its first layout has them (docs/decisions/0043, 0058)", async () => {
    const html = await (await fetch(`${server.baseUrl}/`)).text();
    const head = html.slice(0, html.indexOf("</head>"));
    const preloaded = [...head.matchAll(/<link rel="preload" href="([^"]+)" as="font" crossorigin="" type="font\/woff2"\/>/g)].map((match) => match[1]);
    const stylesheet = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"/.exec(head)![1]!;
    const css = await (await fetch(server.baseUrl + stylesheet)).text();
    const faces = [...css.matchAll(/@font-face\{([^}]*)\}/g)].map((match) => ({
      url: /url\(([^)]+)\)/.exec(match[1]!)![1]!,
      range: /unicode-range:([^;}]+)/.exec(match[1]!)![1]!.trim(),
    }));
    // Inter and Montserrat, Cyrillic and Latin: every page's text uses all four. The rouble sign's
    // own files (1.2 and 3.6 KB) too: one arriving after the first paint laid the whole page out
    // again. They stay files (no font inlined in the stylesheet every page waits for).
    const rouble = faces.filter((face) => face.range === "U+20BD").map((face) => face.url);
    const text = faces.filter((face) => face.range !== "U+20BD").map((face) => face.url);
    expect(text).toHaveLength(4);
    expect(rouble).toHaveLength(2);
    expect(new Set(preloaded)).toEqual(new Set([...text, ...rouble]));
    expect(css).not.toContain("data:font");
    for (const font of [...text, ...rouble]) {
      expect(font).toMatch(/^\/assets\/[^/]+\.woff2$/);
      expect((await fetch(server.baseUrl + font)).status).toBe(200);
    }
  });

  it("sends browsers no database code: no chunk of the client build holds Drizzle's schema code", () => {
    // A form's list of report reasons once came from the schema file, and with it drizzle-orm and
    // two schema parts (37 KB) went to every visitor of a post page (app/db/moderation-values.ts).
    expect(chunksHolding("drizzle:entityKind")).toEqual([]);
  });

  it("leaves what only scripts show out of a page's first scripts: the bell's menu, the toasts' area, tooltips, the trust card and its face, the realtime client and the player's bar (decision 0040)", async () => {
    const first = await firstScripts("/");
    expect(first.length).toBeGreaterThan(3);
    const firstCode = await Promise.all(first.map(async (script) => (await fetch(server.baseUrl + script)).text()));
    // Radix's names for the dropdown menu and the toast viewport survive minifying.
    for (const [marker, chunk] of [
      ['"DropdownMenu"', /^notification-menu-/],
      ['"ToastViewport"', /^toast/],
      // The hints' bubble for the header's and the online list's controls, and the trust card's box (floating-ui).
      ['data-testid":"hint"', /^hint-bubble-/],
      ['data-testid":"trust-card"', /^floating-card-/],
      // The card's face (its figures), which the box brings with it.
      ['data-testid":"trust-card-figures"', /^trust-card-body-/],
      // The realtime client (a member's connection, opened after hydration) and the music player's bar (once a track plays).
      ['"/api/sse"', /^realtime-client-/],
      ['data-testid":"music-player"', /^player-bar-/],
    ] as const) {
      expect(
        first.filter((_, index) => firstCode[index]!.includes(marker)),
        marker,
      ).toEqual([]);
      // Each is in the build, in a chunk of its own that the page loads after hydrating.
      expect(chunksHolding(marker), marker).toEqual([expect.stringMatching(chunk)]);
    }
  });

  it("sends the music player's code with /music, not with every page: the root layout carries only its slot (decision 0046)", async () => {
    const marker = 'data-testid":"music-audio"';
    const holding = async (path: string) => {
      const first = await firstScripts(path);
      const code = await Promise.all(first.map(async (script) => (await fetch(server.baseUrl + script)).text()));
      return first.filter((_, index) => code[index]!.includes(marker));
    };
    expect(await holding("/")).toEqual([]);
    expect(await holding("/music")).toHaveLength(1);
  });

  it("leaves other pages' route modules out of the home page's first scripts (decision 0040)", async () => {
    const first = new Set(await firstScripts("/"));
    const manifestUrl = [...first].find((script) => /^\/assets\/manifest-/.test(script));
    expect(manifestUrl).toBeDefined();
    const manifestSource = await (await fetch(server.baseUrl + manifestUrl)).text();
    const manifest = JSON.parse(manifestSource.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, "")) as {
      routes: Record<string, { id: string; parentId?: string; index?: boolean; module: string }>;
    };
    // `/` renders the home route and its parents; each other route's module must wait for its own page.
    const routes = Object.values(manifest.routes);
    const home = routes.find((route) => route.index && route.module.includes("/home-"));
    expect(home).toBeDefined();
    const onPage = new Set<string>();
    for (let route = home; route; route = route.parentId ? manifest.routes[route.parentId] : undefined) onPage.add(route.id);
    const elsewhere = routes.filter((route) => !onPage.has(route.id));
    expect(elsewhere.length).toBeGreaterThan(50);
    expect(elsewhere.filter((route) => first.has(route.module)).map((route) => route.id)).toEqual([]);
  });

  it("sends scripts, styles and the route manifest compressed once by the build: Brotli at its strongest to a browser that takes it, gzip by Zopfli to one that takes only gzip, the file itself to one that takes neither (decisions 0042, 0047)", async () => {
    const html = await (await fetch(`${server.baseUrl}/`)).text();
    const stylesheet = /href="(\/assets\/[^"]+\.css)"/.exec(html)![1]!;
    const scripts = (await firstScripts("/")).filter((script) => /\/(entry\.client|manifest)-/.test(script));
    expect(scripts).toHaveLength(2);
    for (const asset of [...scripts, stylesheet]) {
      const file = readFileSync(path.join(BUILD_DIR, "client", asset));
      const [chrome, gzipOnly, plain] = await Promise.all([
        requestRaw("GET", asset, "gzip, deflate, br"),
        requestRaw("GET", asset, "gzip"),
        requestRaw("GET", asset, "identity"),
      ]);
      expect(chrome.encoding, asset).toBe("br");
      expect(brotliDecompressSync(chrome.body).equals(file), asset).toBe(true);
      expect(gzipOnly.encoding, asset).toBe("gzip");
      expect(gunzipSync(gzipOnly.body).equals(file), asset).toBe(true);
      expect(plain.encoding, asset).toBeUndefined();
      expect(plain.body.equals(file), asset).toBe(true);
      // Quality 11: a tenth or more smaller than the middleware's quality 4 would send. (Against
      // Zopfli's gzip the gain is smaller, and on the route manifest's hashed names about 10 %.)
      const onTheFly = brotliCompressSync(file, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } }).length;
      expect(chrome.body.length, asset).toBeLessThan(onTheFly * 0.9);
      expect(chrome.body.length, asset).toBeLessThan(gzipOnly.body.length);
      // Zopfli's gzip is smaller than zlib's strongest.
      expect(gzipOnly.body.length, asset).toBeLessThan(gzipSync(file, { level: 9 }).length);
      for (const answer of [chrome, gzipOnly, plain]) expect(answer.cacheControl, asset).toBe("public, max-age=31536000, immutable");
    }
  });

  it("labels an answer's encoding only when its body has it: a POST to a script's path, and the build's own files it does not serve, come back readable (decision 0042)", async () => {
    const script = (await firstScripts("/")).find((path) => /\/entry\.client-/.test(path))!;
    for (const [method, url] of [
      ["POST", script],
      ["OPTIONS", script],
      ["GET", "/.vite/manifest.json"],
    ] as const) {
      const answer = await requestRaw(method, url, "gzip, deflate, br");
      expect(answer.status, `${method} ${url}`).toBeGreaterThanOrEqual(400);
      const body = answer.encoding === "br" ? brotliDecompressSync(answer.body) : answer.encoding === "gzip" ? gunzipSync(answer.body) : answer.body;
      expect(body.toString("utf8"), `${method} ${url}`).toMatch(/^\s*(<!DOCTYPE html>|\{)/i);
    }
  });

  it("bundles react-router's production build into the server build", () => {
    const bundle = readFileSync(path.join(BUILD_DIR, "server/index.js"), "utf8");
    expect(bundle).not.toMatch(/from ["']react-router["']/);
    expect(bundle).not.toContain("react-router/dist/development");
    // The router is in the bundle, without the development build's warnings.
    expect(bundle).toContain("No route matches URL");
    expect(bundle).not.toContain("No routes matched location");
  });
});
