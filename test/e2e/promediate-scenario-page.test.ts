/**
 * ProMediate's cases on the scenario page, in Chromium against the real server: hmo with its five
 * topics, flagship with its six parties, each with the provenance of its case file; and an
 * imported transcript on the run page.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPromediateCases } from "../../app/server/promediate/import-cases.server.ts";
import { importTranscript } from "../../app/server/promediate/import-transcript.server.ts";
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
    let transcriptRun = "";

    beforeAll(async () => {
      const t = await tempDb();
      cleanups.push(t.cleanup);
      await importPromediateCases(t.db, CASES_DIR);
      // A ProMediate transcript: free turn order, two mediator turns in a row, a multi-line utterance.
      const folder = join(import.meta.dirname, "../fixtures/promediate/williams-free");
      transcriptRun = (await importTranscript(t.db, folder, { caseArg: "williams" })).runId;
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
    it("shows an imported transcript on the run page: free order, two mediator turns running, line breaks kept", async () => {
      await page.goto(`${server.url}/runs/${encodeURIComponent(transcriptRun)}`);
      await page.getByTestId("dialogue").waitFor();
      await expect(page.locator("main").innerText()).resolves.toContain("free turn order");
      // The roles of the turns in order: somewhere a mediator turn follows a mediator turn.
      const roles = await page
        .locator("ol.dialogue > li.turn")
        .evaluateAll((items) => items.map((li) => (li.classList.contains("mediator") ? "M" : "P")).join(""));
      expect(roles).toContain("MM");
      const multiLine = page.locator(".turn p", { hasText: "First: pharmacists: they are already stretched thin." });
      // pre-wrap keeps the utterance's own line breaks: the paragraph is several lines tall.
      const box = (await multiLine.boundingBox())!;
      const lineHeight = await multiLine.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
      expect(box.height).toBeGreaterThan(2.5 * lineHeight);
      await expect(multiLine.innerText()).resolves.toContain("stretched thin.\n\nSecond, mandatory");
    });
  },
);
