import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

/**
 * Built like the site: the server build is server.ts around the app, with react-router's
 * production bundle and @react-router/node bundled in, so the baseline costs what a minimal page
 * of ours would (the package's exports name only its development build).
 */
const productionRouter = (file: string) => fileURLToPath(new URL(`../../node_modules/react-router/dist/production/${file}`, import.meta.url));

export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild ? { rollupOptions: { input: fileURLToPath(new URL("./server.ts", import.meta.url)) } } : undefined,
  plugins: [reactRouter()],
  resolve: {
    alias: [
      { find: /^react-router$/, replacement: productionRouter("index.mjs") },
      { find: /^react-router\/dom$/, replacement: productionRouter("dom-export.mjs") },
    ],
  },
  ssr: { noExternal: ["react-router", "@react-router/node"] },
  logLevel: "warn",
}));
