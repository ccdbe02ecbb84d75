/**
 * Holds a task page's next submit in the browser until the test lets it go, so keys typed
 * meanwhile are certainly typed while the next item loads, however fast the server answers (a
 * test that only typed quickly after the submit raced the turnover, which issue 32 made faster).
 * Drafts and other posts pass untouched.
 */
import type { Page, Route } from "playwright-core";

export interface HeldSubmit {
  /** Resolves once the submit has left the page: from then on the page is loading the next item. */
  sent: Promise<void>;
  /** Sends the submit on to the server and stops holding. */
  release: () => Promise<void>;
}

const taskPost = (url: URL) => /^\/annotate\/\d+\/items\/\d+(\.data)?$/.test(url.pathname);

export async function holdNextSubmit(page: Page): Promise<HeldSubmit> {
  let letGo = () => {};
  const gate = new Promise<void>((ok) => (letGo = ok));
  let markSent = () => {};
  const sent = new Promise<void>((ok) => (markSent = ok));
  let held = false;
  let passed: Promise<void> = Promise.resolve();
  const handler = async (route: Route) => {
    const request = route.request();
    const intent = new URLSearchParams(request.postData() ?? "").get("intent");
    if (held || request.method() !== "POST" || intent !== "submit") return route.fallback();
    held = true;
    markSent();
    passed = gate.then(() => route.continue());
    await passed;
  };
  await page.route(taskPost, handler);
  return {
    sent,
    release: async () => {
      letGo();
      await passed;
      await page.unroute(taskPost, handler);
    },
  };
}
