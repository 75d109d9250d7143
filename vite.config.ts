import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : undefined,
  plugins: [tailwindcss(), reactRouter(), tsconfigPaths()],
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
  ssr: { external: ["@electric-sql/pglite", "@node-rs/argon2", "postgres"] },
}));
