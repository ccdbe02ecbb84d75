/** Logging in to the running app: a session cookie for fetch, or a logged-in browser page. */
import type { Page } from "playwright-core";

export const DEMO = {
  admin: { username: "admin", password: "demo-admin-pass" },
  ada: { username: "ada", password: "demo-ada-pass" },
  ben: { username: "ben", password: "demo-ben-pass" },
} as const;

export async function loginCookie(baseUrl: string, account: { username: string; password: string }): Promise<string> {
  const res = await fetch(baseUrl + "/login", {
    method: "POST",
    body: new URLSearchParams(account),
    redirect: "manual",
  });
  const cookie = res.headers.get("set-cookie");
  if (res.status !== 302 || !cookie)
    throw new Error(`login as ${account.username} failed: ${res.status} ${await res.text()}`);
  return cookie.split(";")[0];
}

export async function loginInBrowser(
  page: Page,
  baseUrl: string,
  account: { username: string; password: string },
): Promise<void> {
  await page.goto(baseUrl + "/login");
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

/**
 * Signs `page`'s browser context in by posting the login form from the context itself, without rendering the login
 * page or the home page it leads to: the page is left where it was, holding the session cookie the server set (with
 * its attributes). For tests about what comes after logging in; loginInBrowser drives the form itself.
 */
export async function signIn(page: Page, baseUrl: string, account: { username: string; password: string }) {
  const res = await page.context().request.post(baseUrl + "/login", { form: { ...account }, maxRedirects: 0 });
  if (res.status() !== 302) throw new Error(`login as ${account.username} failed: ${res.status()} ${await res.text()}`);
}

/**
 * As the admin (already logged in on `page`), creates a crowd A/B study from the studies page; returns its id, with the
 * dashboard open.
 */
export async function createCrowdAbStudy(page: Page, baseUrl: string, name: string): Promise<number> {
  await page.goto(baseUrl + "/admin/studies");
  await page.getByLabel(/A\/B reactiveness/).check();
  await page.getByLabel("Name").fill(name);
  await page.getByRole("radio", { name: "Crowd" }).check();
  await page.getByRole("button", { name: "Create study" }).click();
  await page.waitForURL(/\/admin\/studies\/\d+$/);
  return Number(new URL(page.url()).pathname.split("/").pop());
}
