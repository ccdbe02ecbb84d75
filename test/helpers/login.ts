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
  if (res.status !== 302 || !cookie) throw new Error(`login as ${account.username} failed: ${res.status} ${await res.text()}`);
  return cookie.split(";")[0];
}

export async function loginInBrowser(page: Page, baseUrl: string, account: { username: string; password: string }): Promise<void> {
  await page.goto(baseUrl + "/login");
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}
