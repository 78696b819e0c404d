// Builds the designer UI into dist/renderer, which both shells load (HTTP host in browser mode, Electron window).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: path.join(here, "renderer"),
  // relative asset URLs work both from http://127.0.0.1:<port>/ and from Electron's file:// load
  base: "./",
  esbuild: { jsx: "automatic" },
  worker: { format: "es" },
  build: {
    outDir: path.join(here, "dist/renderer"),
    emptyOutDir: true,
    target: "es2022",
    // the codec core is large and loaded once; splitting it further only adds requests
    chunkSizeWarningLimit: 1500,
    // the CSP forbids inline scripts, so nothing may be inlined into index.html
    assetsInlineLimit: 0,
  },
  server: { fs: { allow: [here] } },
});
