import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlib, type InputType } from "node:zlib";
import { gzipAsync } from "@gfx/zopfli";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * react-router's package exports name only its development build (dist/development: dev
 * warnings, extra checks), in Node and in bundlers alike (remix-run/react-router#12437,
 * #14102). Builds point `react-router` and `react-router/dom` at dist/production instead, and
 * bundle react-router and the packages that import it into the server build, so the production
 * server never loads the development build and holds one copy of the router (one context)
 * (docs/product/engineering.md#speed).
 */
const productionRouter = (file: string) => fileURLToPath(new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url));

/**
 * Keeps the app's lazy parts (modules its code asks for with `import("…")`: the bell's menu, the
 * realtime client, the player's bar) and the route modules (app/routes, app/layouts) out of other pages' first scripts.
 * Rollup's chunk merging (`experimentalMinChunkSize`) would move a small eager chunk, say one icon,
 * into a lazy part's chunk, or a small route module into an eager chunk, and that code then loads
 * with every page. It never merges across a module with side effects that are not loaded under the
 * same conditions, so each such module is marked as having some (`no-treeshake`: its code is kept
 * whole, and runs as before). Decision 0040; tests/api/production-build.test.ts checks it.
 */
function keepLazyPartsLazy(): Plugin {
  const lazyParts = new Set<string>();
  return {
    name: "keep-lazy-parts-lazy",
    apply: (_config, { command, isSsrBuild }) => command === "build" && !isSsrBuild,
    async transform(code, id) {
      if (id.includes("/node_modules/")) return null;
      // An importer is transformed before the modules it imports are loaded.
      for (const [, specifier] of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
        const resolved = await this.resolve(specifier!, id);
        if (resolved) lazyParts.add(resolved.id);
      }
      const routeModule = /\/app\/(routes|layouts)\/[^?]*$/.test(id);
      return lazyParts.has(id) || routeModule ? { code, map: null, moduleSideEffects: "no-treeshake" } : null;
    },
  };
}

/** Brotli at its strongest (quality 11), for files compressed once by the build (decision 0042). */
const STRONGEST_BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } };

/** Zopfli's gzip of `input` (decision 0047), in the compression plugin's shape for a compressor. */
async function zopfliGzip(input: InputType): Promise<Buffer> {
  const bytes =
    typeof input === "string"
      ? Buffer.from(input)
      : ArrayBuffer.isView(input)
        ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
        : new Uint8Array(input);
  return Buffer.from(await gzipAsync(bytes, { numiterations: 1 }));
}

/**
 * The browser build's scripts, styles and pictures compressed once, at the strongest settings, beside
 * each file (`x.js.br`, `x.js.gz`), which server/index.js sends instead of compressing per request:
 * Brotli at quality 11 is about 13 % smaller than the quality 4 the compression middleware uses per
 * request (decision 0042). The gzip files are written by Zopfli, a compressor whose output any gzip
 * reader takes and which is about 3 % smaller than zlib's level 9, at the cost of about 16 s of
 * build time (decision 0047; one iteration: more shave only 0.1 %).
 */
const precompressed = () =>
  compression({
    include: /\.(js|css|svg|json)$/,
    // Vite's own manifest (build/client/.vite) is for the build, and React Router deletes it.
    exclude: /(^|\/)\.vite\//,
    threshold: 1024,
    algorithms: [defineAlgorithm("brotliCompress", STRONGEST_BROTLI), defineAlgorithm(zopfliGzip, {})],
  });

/**
 * React Router writes the browser's route manifest (build/client/assets/manifest-*.js, 6 KB gzip in
 * every page's first scripts) while the server build runs, after the browser build's files were
 * compressed: once the server build is done, it is compressed the same way (decision 0047).
 */
function precompressedRouteManifest(): Plugin {
  return {
    name: "precompressed-route-manifest",
    apply: "build",
    async closeBundle() {
      const assets = path.join(process.env.BUILD_DIR ?? "build", "client/assets");
      for (const name of await readdir(assets)) {
        if (!/^manifest-[\w-]+\.js$/.test(name)) continue;
        const source = await readFile(path.join(assets, name));
        await writeFile(path.join(assets, `${name}.gz`), await zopfliGzip(source));
        await writeFile(path.join(assets, `${name}.br`), brotliCompressSync(source, STRONGEST_BROTLI));
      }
    },
  };
}

export default defineConfig(({ command, isSsrBuild }) => ({
  // The server build stays one file: the browser's lazy chunks (the bell's menu) are not split out of it.
  // The browser's chunks under 6 KB are merged (icons, helpers, small components): fewer files and
  // modulepreload links, each a request the page's main thread makes (docs/decisions/0051). Merging up
  // to 20 KB (docs/decisions/0032) put code that loads after hydration back into every page's first
  // scripts (docs/decisions/0040; tests/api/production-build.test.ts checks it).
  build: {
    ...(isSsrBuild
      ? { rollupOptions: { input: "./server/app.ts", output: { inlineDynamicImports: true } } }
      : { rollupOptions: { output: { experimentalMinChunkSize: 6_000 } } }),
    // A font stays a file of its own, however small (the rouble sign's are 1–4 KB): inlined, it
    // would grow the stylesheet every page waits for, though the browser fetches a font only for a
    // page whose text needs it (app/styles/fonts.css). Both builds, so they name the same stylesheet.
    assetsInlineLimit: (file: string) => (file.endsWith(".woff2") ? false : undefined),
  },
  plugins: [
    tailwindcss(),
    reactRouter(),
    tsconfigPaths(),
    keepLazyPartsLazy(),
    ...(command === "build" ? (isSsrBuild ? [precompressedRouteManifest()] : [precompressed()]) : []),
  ],
  resolve:
    command === "build"
      ? {
          alias: [
            { find: /^react-router$/, replacement: productionRouter("index.mjs") },
            { find: /^react-router\/dom$/, replacement: productionRouter("dom-export.mjs") },
          ],
        }
      : undefined,
  // Pre-bundled up front, so the first page in development does not reload mid-way.
  optimizeDeps: {
    include: [
      "@conform-to/react",
      "@conform-to/zod/v4",
      "zod",
      "remix-utils/csrf/react",
      "remix-utils/honeypot/react",
      "lucide-react",
      "@radix-ui/react-dropdown-menu",
      "@radix-ui/react-label",
      "@radix-ui/react-slot",
      "@radix-ui/react-toast",
      "@radix-ui/react-tooltip",
      "class-variance-authority",
      "clsx",
      "tailwind-merge",
    ],
  },
  ssr: {
    external: ["@electric-sql/pglite", "@node-rs/argon2", "postgres"],
    ...(command === "build" ? { noExternal: ["react-router", "remix-utils", "@react-router/node"] } : {}),
  },
}));
