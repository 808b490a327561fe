// The renderer bundle: served by `horu web` and loaded by Electron from dist/renderer.
// base "./" because Electron loads it from a file URL and the web server may sit under a path.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  root: "renderer",
  base: "./",
  plugins: [react()],
  build: {
    outDir: "../dist/renderer",
    emptyOutDir: true,
    // No inline scripts or eval anywhere (CSP script-src 'self').
    modulePreload: { polyfill: false },
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
  server: { host: "127.0.0.1" },
});
