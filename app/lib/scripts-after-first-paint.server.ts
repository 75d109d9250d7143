/**
 * A page's scripts asked for only after its first paint
 * (docs/decisions/0057-scripts-start-after-the-first-paint.md).
 *
 * React Router's `<Scripts/>` writes a module preload (`<link rel="modulepreload">`, hoisted into
 * the head by React) for every module the page hydrates with, and one inline module script whose
 * static imports start the app. The browser fetches all of them while it is still waiting for what
 * the first paint needs. A page works without JavaScript (every form posts to an action), so its
 * scripts can wait until it is shown: this rewrite, applied to the document as it streams,
 *
 * 1. takes the head's module preloads out, keeping their addresses;
 * 2. replaces the inline module script with a classic one (same nonce) that, once the page has been
 *    painted, adds those preloads back one per task (so React finds them when it hydrates the head)
 *    and then inserts the original module script with the original text.
 *
 * A tab opened in the background paints nothing until shown; there the scripts start at once, so
 * its notifications still arrive. Only the shapes React Router writes today are touched: a preload
 * with other attributes (integrity, crossorigin) stays where it is, and if the module script is
 * not found whole in one chunk it is left as written, which still starts the app (its imports
 * then fetch without the preloads' head start).
 */

/** A module preload exactly as `<Scripts/>` writes it, with or without the CSP nonce. */
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"(?: nonce="[^"]*")?\/>/g;
/** The inline module script that starts the app; `$1` is its nonce attribute, if any. */
const APP_BOOTSTRAP = /<script((?: nonce="[^"]*")?) type="module" async="">([\s\S]*?)<\/script>/;
const HEAD_END = "</head>";
/** The latest the scripts start (ms after the starter runs) where a paint is never reported. */
const LATEST_START_MS = 3_000;

/**
 * How many module preloads the starter adds in one task. Each one a script adds costs Chromium about
 * half a millisecond of the main thread (0.4–1 ms measured on a post page, several times that under
 * Lighthouse's load), so the 34 of a post page made one task of 48–61 ms after the first paint,
 * which Lighthouse counts as blocking four times over. One a task, the tasks chained by a message
 * (no timer clamping), is what kept Lighthouse's blocking time lowest (docs/decisions/0057).
 */
const PRELOADS_PER_TASK = 1;

/**
 * Runs in the page: waits for the first paint as the browser reports it (a `paint` performance
 * entry, which comes once the frame is shown), then asks for the modules, PRELOADS_PER_TASK in each
 * task (all at once in a hidden tab), and starts the app, once.
 * Where paint timing is missing, after the next animation frame; in any case no later than
 * `LATEST_START_MS` after the starter ran. Neither an animation frame nor the `load` event is enough
 * where paint timing exists: Chromium runs frames it does not show yet and may fire `load` before
 * the first paint (a same-site navigation keeps the previous page on screen a while, and cached
 * files load at once). `M` is the list of module addresses, `C` the module script's text.
 */
const STARTER = `(function(M,C){var n=document.currentScript.nonce,d=0,W=window,P=W.PerformanceObserver;function go(){if(d)return;d=1;var i=0,h=document.visibilityState!=="visible",c=W.MessageChannel&&new W.MessageChannel();if(c)c.port1.onmessage=step;step();function step(){for(var k=0;(h||k<${PRELOADS_PER_TASK})&&i<M.length;k++,i++){var l=document.createElement("link");l.rel="modulepreload";l.href=M[i];l.nonce=n;document.head.appendChild(l)}if(i<M.length){c?c.port2.postMessage(0):setTimeout(step,0);return}if(c)c.port1.close();var s=document.createElement("script");s.type="module";s.nonce=n;s.textContent=C;document.head.appendChild(s)}}if(document.visibilityState!=="visible")return go();if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)new P(function(e,o){o.disconnect();go()}).observe({type:"paint",buffered:true});else requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,${LATEST_START_MS})})`;

/**
 * A rewriter for one document: call it on each chunk of the streamed HTML, in order; it returns
 * the chunk to send (the same Buffer when nothing in it changes). Chunks are taken as Latin-1 so
 * that a chunk ending inside a UTF-8 character passes through byte for byte.
 */
export function scriptsAfterFirstPaint(): (chunk: Buffer) => Buffer {
  let stage: "head" | "body" | "done" = "head";
  const modules: string[] = [];
  return (chunk) => {
    if (stage === "done") return chunk;
    let html = chunk.toString("latin1");
    let changed = false;
    if (stage === "head") {
      const headEnd = html.indexOf(HEAD_END);
      const head = headEnd === -1 ? html : html.slice(0, headEnd);
      const kept = head.replace(MODULE_PRELOAD, (_link, href: string) => {
        modules.push(href);
        return "";
      });
      if (kept.length !== head.length) {
        html = kept + html.slice(head.length);
        changed = true;
      }
      if (headEnd === -1) return changed ? Buffer.from(html, "latin1") : chunk;
      stage = "body";
    }
    const bootstrap = APP_BOOTSTRAP.exec(html);
    if (bootstrap) {
      stage = "done";
      const [script, nonce, code] = bootstrap as unknown as [string, string, string];
      const starter = `<script${nonce}>${STARTER}(${scriptJson(modules)},${scriptJson(code)})</script>`;
      html = html.slice(0, bootstrap.index) + starter + html.slice(bootstrap.index + script.length);
      changed = true;
    }
    return changed ? Buffer.from(html, "latin1") : chunk;
  };
}

/** JSON safe inside an inline `<script>`: no `<` to close it or open a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}
