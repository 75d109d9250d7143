import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

/** Built like the site (production router bundled in), so the baseline costs what a minimal page of ours would. */
const productionRouter = (file: string) => fileURLToPath(new URL(`../../node_modules/react-router/dist/production/${file}`, import.meta.url));

export default defineConfig({
  plugins: [reactRouter()],
  resolve: {
    alias: [
      { find: /^react-router$/, replacement: productionRouter("index.mjs") },
      { find: /^react-router\/dom$/, replacement: productionRouter("dom-export.mjs") },
    ],
  },
  logLevel: "warn",
});
