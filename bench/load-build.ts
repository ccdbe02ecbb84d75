/**
 * The production build the HTTP benches serve: the tests' build-test/, built when absent (REBUILD=1 forces it); never
 * build/.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildApp, ROOT, TEST_BUILD_DIR } from "../harness/test-build.ts";

export function ensureTestBuild(): void {
  if (existsSync(join(ROOT, TEST_BUILD_DIR, "server/index.js")) && process.env.REBUILD !== "1") return;
  console.log(`Building the app (remix vite:build into ${TEST_BUILD_DIR}/)…`);
  buildApp();
}
