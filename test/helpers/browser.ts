/**
 * Chromium for browser tests: Debian's /usr/bin/chromium driven by playwright-core.
 * Without a browser the tests are skipped locally; under CI=true that is a failure.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean) as string[];

export const chromiumPath = CANDIDATES.find((p) => existsSync(p)) ?? null;
export const inCi = process.env.CI === "true";
/** Run browser suites when a browser exists, and always in CI (where a missing one must fail). */
export const runBrowserTests = chromiumPath !== null || inCi;

export async function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error(`No Chromium found (looked in ${CANDIDATES.join(", ")}). Install it: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: chromiumPath,
    // Flags for a closed network and a root user: no sandbox, no background fetches.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
