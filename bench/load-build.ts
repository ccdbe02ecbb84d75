/**
 * The production build the HTTP benches serve: the tests' build-test/, built when absent, when a
 * file under app/ or db/ changed since it was built (a stale build measures old code), or when
 * REBUILD=1 forces it; never build/.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildApp, ROOT, TEST_BUILD_DIR } from "../harness/test-build.ts";

/** The newest modification time of the files under `dir`, in ms. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

export function ensureTestBuild(): void {
  const built = join(ROOT, TEST_BUILD_DIR, "server/index.js");
  const fresh =
    existsSync(built) &&
    statSync(built).mtimeMs >= Math.max(newestMtime(join(ROOT, "app")), newestMtime(join(ROOT, "db")));
  if (fresh && process.env.REBUILD !== "1") return;
  console.log(`Building the app (remix vite:build into ${TEST_BUILD_DIR}/)…`);
  buildApp();
}
