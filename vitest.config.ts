import { defineConfig } from "vitest/config";

// Kept apart from vite.config.ts so the Remix plugin never loads under test.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    pool: "forks",
    reporters: ["default", "./test/plain-summary-reporter.ts"],
  },
});
