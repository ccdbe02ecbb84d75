/**
 * The theme toggle in Chromium against the real server: with no choice the page follows the
 * system's colour scheme; choosing dark or light in the header overrides it, is remembered across
 * a reload (localStorage, no server write), and is applied by the inline head script before the
 * app's scripts load, so a dark page never paints light first; choosing "system" follows it again.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";

const LIGHT_BG = "rgb(246, 248, 250)";
const DARK_BG = "rgb(13, 17, 23)";

// The page background is the root element's (app/styles.css paints :root).
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const themeAttr = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme ?? null);

describe.runIf(runBrowserTests)("light, dark and system theme in Chromium", { timeout: 120_000 }, () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A page in a fresh browser profile whose system asks for `scheme`, on the login page, hydrated. */
  async function open(scheme: "light" | "dark"): Promise<Page> {
    const context = await browser.newContext({ colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(server.url + "/login");
    await page.waitForLoadState("networkidle");
    return page;
  }

  it("follows the system by default, in both schemes", async () => {
    const light = await open("light");
    expect(await background(light)).toBe(LIGHT_BG);
    expect(await light.getByTestId("theme-toggle").inputValue()).toBe("system");
    const dark = await open("dark");
    expect(await background(dark)).toBe(DARK_BG);
    expect(await themeAttr(dark)).toBeNull();
    await light.context().close();
    await dark.context().close();
  });

  it("switches to dark, remembers it on reload and applies it before the app's scripts run", async () => {
    const page = await open("light");
    await page.getByLabel("Theme").selectOption("dark");
    expect(await themeAttr(page)).toBe("dark");
    expect(await background(page)).toBe(DARK_BG);
    expect(await page.evaluate(() => localStorage.getItem("socrates-theme"))).toBe("dark");

    await page.reload();
    await page.waitForLoadState("networkidle");
    expect(await background(page)).toBe(DARK_BG);
    expect(await page.getByTestId("theme-toggle").inputValue()).toBe("dark");

    // Without the app's bundles only the inline head script runs: the page is dark all the same.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.reload();
    expect(await themeAttr(page)).toBe("dark");
    expect(await background(page)).toBe(DARK_BG);
    await page.context().close();
  });

  it("a light choice overrides a dark system, and 'system' follows the system again", async () => {
    const page = await open("dark");
    await page.getByLabel("Theme").selectOption("light");
    expect(await background(page)).toBe(LIGHT_BG);
    await page.reload();
    await page.waitForLoadState("networkidle");
    expect(await background(page)).toBe(LIGHT_BG);
    expect(await page.getByTestId("theme-toggle").inputValue()).toBe("light");

    await page.getByLabel("Theme").selectOption("system");
    expect(await themeAttr(page)).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem("socrates-theme"))).toBeNull();
    expect(await background(page)).toBe(DARK_BG);
    await page.reload();
    await page.waitForLoadState("networkidle");
    expect(await background(page)).toBe(DARK_BG);
    await page.context().close();
  });
});
