/**
 * ProMediate's cases on the scenario page, in Chromium against the real server: hmo with its five
 * topics, flagship with its six parties, each with the provenance of its case file.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPromediateCases } from "../../app/server/promediate/import-cases.server.ts";
import type { AppServer } from "../../harness/app-server.ts";
import { runBrowserTests } from "../../harness/browser.ts";
import { tempDb } from "../../harness/temp-db.ts";
import { openAsAdmin } from "../helpers/admin-browser.ts";
import { CASES_DIR } from "../unit/promediate/cases-dir.ts";

describe.runIf(runBrowserTests)(
  "imported ProMediate cases on the scenario page, in Chromium",
  { timeout: 120_000 },
  () => {
    const cleanups: (() => unknown)[] = [];
    let server: AppServer;
    let page: Page;

    beforeAll(async () => {
      const t = tempDb();
      cleanups.push(t.cleanup);
      importPromediateCases(t.db, CASES_DIR);
      ({ server, page } = await openAsAdmin(t, cleanups));
    });
    afterAll(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    it("shows hmo's five topics with their lettered options and its provenance", async () => {
      await page.goto(`${server.url}/scenarios/promediate-hmo`);
      await page.getByRole("heading", { name: "Conditions" }).waitFor();
      await expect(page.locator("section.topic").count()).resolves.toBe(5);
      await expect(page.locator("section.topic h3").allInnerTexts()).resolves.toEqual([
        "T1 Market Share Target Tiers",
        "T2 Discount Pricing Schedule",
        "T3 Marketing Support",
        "T4 Formulary Status",
        "T5 Contract Term",
      ]);
      await expect(page.locator("section.topic").nth(3).locator(".options li").allInnerTexts()).resolves.toEqual([
        "(A) Open",
        "(B) Dual",
        "(C) Exclusive",
      ]);
      await expect(page.locator("h1 .badge").innerText()).resolves.toBe("ProMediate case");
      const sha = createHash("sha256")
        .update(readFileSync(join(CASES_DIR, "hmo.json")))
        .digest("hex");
      await expect(page.locator("[data-provenance]").innerText()).resolves.toContain(`hmo.json (sha256 ${sha})`);
    });

    it("shows flagship's six parties with a weight and a stance per topic", async () => {
      await page.goto(`${server.url}/scenarios/promediate-flagship`);
      await page.getByRole("heading", { name: "Conditions" }).waitFor();
      const cards = page.locator("section.party-card");
      await expect(cards.count()).resolves.toBe(6);
      await expect(cards.locator("h3 code").allInnerTexts()).resolves.toEqual([
        "ATCHISON",
        "DELLING",
        "GORDON",
        "LANGTON",
        "ROSS",
        "STILES",
      ]);
      await expect(cards.nth(5).locator("tr").count()).resolves.toBe(4);
    });
  },
);
