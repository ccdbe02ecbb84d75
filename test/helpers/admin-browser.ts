/**
 * The research pages' browser-test setup: an admin account on the prepared database, the real
 * server on it, and Chromium logged in as that admin. Each step registers its cleanup (run them
 * in reverse); closing the browser fails the suite if any page broke the CSP.
 */
import type { Page } from "playwright-core";
import { createAccount } from "../../app/server/annotation/accounts.server.ts";
import type { Db } from "../../app/server/db.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium } from "../../harness/browser.ts";
import { signIn } from "../../harness/login.ts";

export const TEST_ADMIN = { username: "admin", password: "test-admin-pass" };

export async function openAsAdmin(
  t: { db: Db; path: string },
  cleanups: (() => unknown)[],
): Promise<{ server: AppServer; page: Page }> {
  await createAccount(t.db, {
    username: TEST_ADMIN.username,
    displayName: "Admin",
    role: "admin",
    password: TEST_ADMIN.password,
  });
  const server = await startAppServer({ dbPath: t.path });
  cleanups.push(() => server.stop());
  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  const page = await (await browser.newContext()).newPage();
  await signIn(page, server.url, TEST_ADMIN);
  return { server, page };
}
