import { describe, expect, it } from "vitest";
import { scriptsAfterFirstPaint } from "./scripts-after-first-paint.server";

// A document as React Router's <Scripts/> and React write it (the shapes seen in the production build).
const HEAD =
  '<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8"/><link rel="stylesheet" href="/assets/app.css"/>' +
  '<link rel="modulepreload" href="/assets/manifest.js" nonce="N1"/>' +
  '<link rel="modulepreload" href="/assets/entry.client.js" nonce="N1"/>' +
  '<link rel="modulepreload" href="/assets/root.js" nonce="N1"/>' +
  "<title>Шодка</title></head>";
const BOOTSTRAP_CODE =
  'import "/assets/manifest.js";\nimport * as route0 from "/assets/root.js";\n  window.__reactRouterRouteModules = {"root":route0};\n\nimport("/assets/entry.client.js");';
const BODY =
  '<body><main>Привет, мир</main><script nonce="N1">window.__reactRouterContext = {"a":"</b>"};</script>' +
  `<script nonce="N1" type="module" async="">${BOOTSTRAP_CODE}</script>` +
  '<script nonce="N1">window.__reactRouterContext.streamController.close();</script></body></html>';

function rewritten(chunks: string[]): string {
  const rewrite = scriptsAfterFirstPaint();
  return Buffer.concat(chunks.map((chunk) => rewrite(Buffer.from(chunk)))).toString();
}

/** `$1` the nonce attribute, `$2` the script's text, `$3` its call's arguments. */
const STARTER_SCRIPT = /<script( nonce="[^"]*")?>(\(function\(M,C\).*?\}\)\((\[.*?)\))<\/script>/s;

/** The starter's two arguments, read back from the page: the module addresses and the module script's text. */
function starterArguments(html: string): { modules: string[]; code: string; nonce: string } {
  const match = STARTER_SCRIPT.exec(html);
  if (!match) throw new Error("no starter in the page");
  const [modules, code] = JSON.parse(`[${match[3]!}]`) as [string[], string];
  return { modules, code, nonce: match[1] ?? "" };
}

describe("scriptsAfterFirstPaint (docs/decisions/0057)", () => {
  it("takes the head's module preloads out and starts the same modules from the starter, with the page's nonce", () => {
    const html = rewritten([HEAD + BODY]);
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).not.toContain('type="module" async=""');
    expect(html).toContain('<link rel="stylesheet" href="/assets/app.css"/>');
    const starter = starterArguments(html);
    expect(starter.modules).toEqual(["/assets/manifest.js", "/assets/entry.client.js", "/assets/root.js"]);
    expect(starter.code).toBe(BOOTSTRAP_CODE);
    expect(starter.nonce).toBe(' nonce="N1"');
    // Everything else is sent as written, in order.
    expect(html.replace(/<script nonce="N1">\(function\(M,C\).*?<\/script>/, "")).toBe(
      HEAD.replace(/<link rel="modulepreload"[^>]*>/g, "") + BODY.replace(/<script nonce="N1" type="module".*?<\/script>/s, ""),
    );
  });

  it("works on a document streamed in pieces, pieces ending inside Cyrillic letters of the head and the body", () => {
    const document = Buffer.from(HEAD + BODY);
    const inHead = document.indexOf(Buffer.from("одка")) + 1; // between the two bytes of «о»
    const inBody = document.indexOf(Buffer.from("ривет")) + 1; // and of «р»
    const pieces = [document.subarray(0, inHead), document.subarray(inHead, inBody), document.subarray(inBody)];
    const rewrite = scriptsAfterFirstPaint();
    const html = Buffer.concat(pieces.map((piece) => rewrite(Buffer.from(piece)))).toString();
    expect(html).toContain("<main>Привет, мир</main>");
    expect(html).toContain("<title>Шодка</title>");
    expect(starterArguments(html).modules).toHaveLength(3);
    expect(starterArguments(html).code).toBe(BOOTSTRAP_CODE);
  });

  it("leaves a module script split between two pieces as written, so the app still starts", () => {
    const document = HEAD + BODY;
    const inScript = document.indexOf("import * as route0");
    const html = rewritten([document.slice(0, inScript), document.slice(inScript)]);
    expect(html).toContain(`<script nonce="N1" type="module" async="">${BOOTSTRAP_CODE}</script>`);
    expect(html).not.toContain("(function(M,C)");
  });

  it("writes no `<` of the module script's text into the starter, where it could end or hide the script", () => {
    const code = 'const marker = "<!--<script>";\nimport("/assets/entry.client.js");';
    const html = rewritten([HEAD, BODY.replace(BOOTSTRAP_CODE, code)]);
    expect(html).not.toContain("<!--");
    expect(starterArguments(html).code).toBe(code);
  });

  it("works without a nonce, and leaves preloads of other shapes where they are", () => {
    const withoutNonce = (HEAD + BODY).replaceAll(' nonce="N1"', "");
    const document = withoutNonce.replace("<title>", '<link rel="modulepreload" href="/assets/signed.js" integrity="sha384-x"/><title>');
    const html = rewritten([document]);
    expect(starterArguments(html).nonce).toBe("");
    expect(starterArguments(html).modules).toEqual(["/assets/manifest.js", "/assets/entry.client.js", "/assets/root.js"]);
    expect(html).toContain('<link rel="modulepreload" href="/assets/signed.js" integrity="sha384-x"/>');
  });

  it("returns a piece with nothing to change as the same buffer", () => {
    const rewrite = scriptsAfterFirstPaint();
    rewrite(Buffer.from(HEAD + BODY));
    const later = Buffer.from('<script nonce="N1">window.__reactRouterContext.streamController.enqueue("[]");</script>');
    expect(rewrite(later)).toBe(later);
  });

  describe("the starter, run as the page runs it", () => {
    type Element = Record<string, string>;
    /**
     * Runs the page's starter against a stand-in window: `paint()` reports the first paint to its
     * performance observers, `frame()` runs the animation frames and then the timers of 0 ms,
     * `wait(ms)` the timers of up to `ms`.
     */
    function runStarter({ visibilityState = "visible", paintTiming = true, head = HEAD } = {}) {
      const script = STARTER_SCRIPT.exec(rewritten([head + BODY]))![2]!;
      const added: Element[] = [];
      const frames: (() => void)[] = [];
      const messages: (() => void)[] = [];
      const timers: { callback: () => void; ms: number }[] = [];
      const observers: { callback: (entries: unknown, observer: { disconnect(): void }) => void; type: string; connected: boolean }[] = [];
      const document = {
        currentScript: { nonce: "N1" },
        visibilityState,
        createElement: (tagName: string) => ({ tagName }),
        head: { appendChild: (element: Element) => added.push(element) },
      };
      class PerformanceObserver {
        static supportedEntryTypes = paintTiming ? ["paint", "resource"] : ["resource"];
        constructor(private callback: (entries: unknown, observer: { disconnect(): void }) => void) {}
        observe({ type }: { type: string }) {
          const observer = { callback: this.callback, type, connected: true };
          observers.push(observer);
        }
      }
      // Each message posted is a task of its own, run by `tasks()`.
      class MessageChannel {
        port1 = { onmessage: null as (() => void) | null, close: () => (this.port1.onmessage = null) };
        port2 = { postMessage: () => messages.push(() => this.port1.onmessage?.()) };
      }
      const window = { PerformanceObserver, MessageChannel };
      new Function("document", "window", "requestAnimationFrame", "setTimeout", script)(
        document,
        window,
        (callback: () => void) => frames.push(callback),
        (callback: () => void, ms: number) => timers.push({ callback, ms }),
      );
      const runTimers = (upTo: number) => {
        const due = timers.filter((timer) => timer.ms <= upTo);
        timers.splice(0, timers.length, ...timers.filter((timer) => timer.ms > upTo));
        due.forEach((timer) => timer.callback());
      };
      return {
        added,
        observers,
        paint: () => {
          for (const observer of observers.filter((each) => each.type === "paint" && each.connected)) {
            observer.callback([{ name: "first-paint" }], { disconnect: () => (observer.connected = false) });
          }
        },
        frame: () => {
          frames.splice(0).forEach((callback) => callback());
          runTimers(0);
        },
        wait: (ms: number) => runTimers(ms),
        tasks: () => messages.splice(0).forEach((task) => task()),
        /** Runs the tasks the starter chains until it has added everything. */
        drain: () => {
          while (messages.length > 0) messages.splice(0).forEach((task) => task());
        },
      };
    }

    const started = [
      { tagName: "link", rel: "modulepreload", href: "/assets/manifest.js", nonce: "N1" },
      { tagName: "link", rel: "modulepreload", href: "/assets/entry.client.js", nonce: "N1" },
      { tagName: "link", rel: "modulepreload", href: "/assets/root.js", nonce: "N1" },
      { tagName: "script", type: "module", nonce: "N1", textContent: BOOTSTRAP_CODE },
    ];

    it("adds nothing until the first paint is reported, then the preloads and the module script with the nonce, once", () => {
      const page = runStarter();
      page.frame(); // a frame that Chromium may not show yet
      expect(page.added).toEqual([]);
      page.paint();
      page.drain();
      expect(page.added).toEqual(started);
      expect(page.observers.every((observer) => !observer.connected)).toBe(true);
      page.wait(3_000);
      page.drain();
      expect(page.added).toEqual(started);
    });

    it("starts 3 s after it ran if no paint has been reported by then", () => {
      const page = runStarter();
      page.wait(2_999);
      expect(page.added).toEqual([]);
      page.wait(3_000);
      page.drain();
      expect(page.added).toEqual(started);
      page.paint();
      page.drain();
      expect(page.added).toEqual(started);
    });

    it("without paint timing, starts after the next animation frame", () => {
      const page = runStarter({ paintTiming: false });
      expect(page.observers).toEqual([]);
      expect(page.added).toEqual([]);
      page.frame();
      page.drain();
      expect(page.added).toEqual(started);
    });

    it("adds the preloads one per task, then the module script", () => {
      // Each module preload a script adds costs Chromium about half a millisecond of the main thread.
      const modules = Array.from({ length: 9 }, (_, i) => `/assets/chunk-${i}.js`);
      const head = HEAD.replace("</head>", modules.map((href) => `<link rel="modulepreload" href="${href}" nonce="N1"/>`).join("") + "</head>");
      const page = runStarter({ head });
      page.paint();
      const links = () => page.added.filter((element) => element.tagName === "link").length;
      expect([links(), page.added.length]).toEqual([1, 1]);
      page.tasks();
      expect([links(), page.added.length]).toEqual([2, 2]);
      for (let task = 0; task < 10; task += 1) page.tasks();
      expect(links()).toBe(12);
      expect(page.added.at(-1)).toEqual({ tagName: "script", type: "module", nonce: "N1", textContent: BOOTSTRAP_CODE });
      page.tasks();
      expect(page.added).toHaveLength(13);
    });

    it("starts at once in a tab opened in the background, which paints nothing until shown", () => {
      const page = runStarter({ visibilityState: "hidden" });
      expect(page.added).toEqual(started);
    });
  });
});
