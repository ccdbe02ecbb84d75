/**
 * Where the production build lives. `npm start` builds into and serves from `build/`; the test
 * suite (and the load benchmark) build into `build-test/` through `SOCRATES_BUILD_DIR`, so running
 * the tests in the folder of a running `npm start` never replaces the files that server answers
 * with. Read by vite.config.ts (where the build is written) and scripts/serve.ts (what it serves).
 */
export const DEFAULT_BUILD_DIR = "build";

export function buildDirectory(env: Record<string, string | undefined> = process.env): string {
  return env.SOCRATES_BUILD_DIR?.trim() || DEFAULT_BUILD_DIR;
}
