import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { buildDirectory } from "./scripts/build-dir.ts";

export default defineConfig({
  plugins: [
    remix({
      // build/ for `npm start`; the tests build elsewhere (scripts/build-dir.ts).
      buildDirectory: buildDirectory(),
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  server: { port: 3000 },
  build: { chunkSizeWarningLimit: 1500 },
});
