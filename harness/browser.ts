/**
 * Chromium for browser tests: Debian's /usr/bin/chromium driven by playwright-core.
 * Without a browser the tests are skipped locally; under CI=true that is a failure.
 * Every page the browser opens is watched for Content-Security-Policy violations (the app's own
 * pages must pass its CSP): `browser.close()` throws when there were any, so the suite fails.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext } from "playwright-core";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(
  Boolean,
) as string[];

export const chromiumPath = CANDIDATES.find((p) => existsSync(p)) ?? null;
export const inCi = process.env.CI === "true";
/** Run browser suites when a browser exists, and always in CI (where a missing one must fail). */
export const runBrowserTests = chromiumPath !== null || inCi;

export async function launchChromium(): Promise<Browser> {
  if (!chromiumPath)
    throw new Error(`No Chromium found (looked in ${CANDIDATES.join(", ")}). Install it: apt-get install -y chromium`);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    // Flags for a closed network and a root user: no sandbox, no background fetches.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return watchingCsp(browser);
}

/** Marks the console lines the CSP watcher writes, so they are told apart from the page's own. */
const CSP_MARK = "[csp-violation]";

/** Records each CSP violation of every page in `context` into `violations`. */
async function watchContext(context: BrowserContext, violations: string[]): Promise<void> {
  await context.addInitScript((mark: string) => {
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(
        `${mark} ${e.effectiveDirective} blocked ${e.blockedURI || "inline"} on ${e.documentURI} (${e.sourceFile}:${e.lineNumber})`,
      ),
    );
  }, CSP_MARK);
  context.on("console", (message) => {
    const text = message.text();
    // Chromium also reports each refusal on the console ("… violates the following Content Security
    // Policy directive …"; older: "Refused to …"), including framing refusals, which raise no event in the framing
    // page.
    if (text.startsWith(CSP_MARK) || /Content Security Policy directive/.test(text))
      violations.push(`${message.page()?.url() ?? "?"}: ${text}`);
  });
}

/** The browser, with every new context watched and `close()` failing when a page broke the CSP. */
export function watchingCsp(browser: Browser): Browser & { cspViolations: string[] } {
  const violations: string[] = [];
  const newContext = browser.newContext.bind(browser);
  const close = browser.close.bind(browser);
  return Object.assign(browser, {
    cspViolations: violations,
    async newContext(...args: Parameters<Browser["newContext"]>) {
      const context = await newContext(...args);
      await watchContext(context, violations);
      return context;
    },
    async close(...args: Parameters<Browser["close"]>) {
      await close(...args);
      if (violations.length) throw new Error(`Pages broke the Content-Security-Policy:\n${violations.join("\n")}`);
    },
  });
}
