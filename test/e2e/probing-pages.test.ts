/**
 * Probing on the research pages, in Chromium against the real server: a scenario page lists its
 * conditions in Table 5 order (missing ones with the command that expands them) and shows what
 * each changed; an admin creates an A/B study from two of three simulator backbones through the
 * New-study form, and once annotators have labelled it the dashboard shows fidelity and nominal
 * alpha per backbone. The data is the test's own (test/fixtures/probing-fixture.ts), not the demo.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importBundleFiles } from "../../app/server/bundle-store.server.ts";
import { reactivenessStatement } from "../../app/domain/probing/personas.ts";
import { fidelityPairsBundle, HISTORY_TEXT, PROBE_FX, probingBundle } from "../fixtures/probing-fixture.ts";
import { addAnnotator } from "../../harness/annotation.ts";
import { imperfectChooser, labelAbStudy } from "../helpers/ab-labelling.ts";
import { openAsAdmin } from "../helpers/admin-browser.ts";
import type { AppServer } from "../../harness/app-server.ts";
import { runBrowserTests } from "../../harness/browser.ts";
import { tempDb } from "../../harness/temp-db.ts";

describe.runIf(runBrowserTests)(
  "probing on the scenario page and A/B studies by backbone, in Chromium",
  { timeout: 120_000 },
  () => {
    const cleanups: (() => unknown)[] = [];
    let t: Awaited<ReturnType<typeof tempDb>>;
    let server: AppServer;
    let page: Page;

    beforeAll(async () => {
      t = await tempDb();
      cleanups.push(t.cleanup);
      await importBundleFiles(t.db, [
        { file: "probe.json", text: JSON.stringify(probingBundle()) },
        { file: "ab.json", text: JSON.stringify(fidelityPairsBundle(["sim-a", "sim-b", "sim-c"], 4)) },
      ]);
      ({ server, page } = await openAsAdmin(t, cleanups));
    });
    afterAll(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    const item = (id: string) => page.locator(`.condition-item[data-condition="${id}"]`);

    it("lists the 15 conditions in Table 5 order, the missing ones with the probe command", async () => {
      await page.goto(`${server.url}/scenarios/${PROBE_FX}`);
      await page.getByRole("heading", { name: "Conditions" }).waitFor();
      const top = page.locator(".conditions > .condition-list > .condition-item");
      await expect(top.count()).resolves.toBe(15);
      await expect(top.first().locator(".condition-axis").innerText()).resolves.toBe("general");
      await expect(top.last().innerText()).resolves.toContain("CN-KR");
      await expect(page.getByText("9 not expanded yet.").isVisible()).resolves.toBe(true);
      await expect(item(`${PROBE_FX}:emotion:RR`).innerText()).resolves.toContain(
        `not expanded yet — npx socrates probe --scenario ${PROBE_FX}`,
      );
      const history = await item(`${PROBE_FX}:history:extended`).locator(".provenance").innerText();
      expect(history).toBe(
        "writer writer-model-x · from the background (no seed report) · length ×4.96 · prompt hist0001",
      );
      await expect(item(`${PROBE_FX}:parties:three-party`).locator(".provenance").innerText()).resolves.toContain(
        "seed seed-42 · repaired",
      );
    });

    it("opens a condition's diff from the keyboard: persona chips and the added statement highlighted", async () => {
      await page.goto(`${server.url}/scenarios/${PROBE_FX}`);
      const emotion = item(`${PROBE_FX}:emotion:CR`);
      await expect(emotion.locator(".condition-head .chip").allInnerTexts()).resolves.toEqual([
        "BUY reactiveness 0",
        "SELL reactiveness 1",
      ]);
      const body = emotion.locator(".condition-diff-body");
      await expect(body.isVisible()).resolves.toBe(false);
      await emotion.locator("summary").focus();
      await page.keyboard.press("Enter");
      await body.waitFor();
      await expect(body.locator(".text-diff ins").first().innerText()).resolves.toBe(reactivenessStatement(0));
      await expect(body.innerText()).resolves.toContain("Background unchanged.");

      const history = item(`${PROBE_FX}:history:extended`);
      await history.locator("summary").click();
      await expect(history.locator(".condition-diff-body > p").first().innerText()).resolves.toMatch(
        /text added before the original/,
      );
      await expect(history.locator(".text-diff ins").innerText()).resolves.toBe(`${HISTORY_TEXT}\n\n`);

      const threeParty = item(`${PROBE_FX}:parties:three-party`);
      await threeParty.locator("summary").click();
      await expect(threeParty.locator(".party-added").innerText()).resolves.toMatch(/Lender LEND added/);
    });

    it("links a condition's runs to the run viewer filtered to it, and summarises the fidelity conditions", async () => {
      await page.goto(`${server.url}/scenarios/${PROBE_FX}`);
      const fidelity = page.locator(".fidelity-conditions");
      await expect(fidelity.locator("> summary").innerText()).resolves.toBe("Persona-fidelity conditions: 3 (24 runs)");
      await expect(fidelity.locator(".condition-item").first().isVisible()).resolves.toBe(false);
      await item(`${PROBE_FX}:emotion:CR`).getByRole("link", { name: "1 run" }).click();
      await page.waitForURL(
        (url) => url.pathname === "/runs" && url.searchParams.get("condition") === `${PROBE_FX}:emotion:CR`,
      );
      await page.getByText(`Condition ${PROBE_FX}:emotion:CR only`).waitFor();
      await expect(page.locator(".data-table tbody tr").count()).resolves.toBe(1);
    });

    it("creates an A/B study from two backbones through the form; the dashboard shows fidelity and alpha per backbone", async () => {
      await page.goto(`${server.url}/admin/studies`);
      await page.getByLabel(/A\/B reactiveness/).check();
      await expect(
        page
          .getByRole("checkbox")
          .evaluateAll((boxes) =>
            boxes.map((b) => (b.parentElement as HTMLElement).innerText.trim()).filter((t) => / pairs\)$/.test(t)),
          ),
      ).resolves.toEqual(["sim-a (4 pairs)", "sim-b (4 pairs)", "sim-c (4 pairs)"]);
      await page.getByLabel("Name").fill("Fidelity by backbone");
      await page.getByLabel("Labels per item").fill("3");
      await page.getByRole("checkbox", { name: /sim-a/ }).check();
      await page.getByRole("checkbox", { name: /sim-c/ }).check();
      await page.getByRole("button", { name: "Create study" }).click();
      await page.waitForURL(/\/admin\/studies\/\d+$/);
      const studyId = Number(new URL(page.url()).pathname.split("/").pop());

      const annotators = await Promise.all(["x1", "x2", "x3"].map((name) => addAnnotator(t.db, name, "expert")));
      expect(await labelAbStudy(t.db, studyId, annotators, imperfectChooser)).toBe(24);
      await page.reload();
      const table = page.getByTestId("fidelity-table");
      await table.waitFor();
      await expect(table.locator("thead th").allInnerTexts()).resolves.toEqual([
        "Simulator backbone",
        "Pairs",
        "Correct",
        "No majority",
        "Labels",
        "Fidelity",
        "Nominal α",
        "95% CI",
        "n units",
        "Measured pairs",
        "Auto agreement",
        "Auto r (p)",
      ]);
      const rows = await table
        .locator("tbody tr")
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => (td as HTMLElement).innerText.trim())),
        );
      expect(rows.map((r) => r[0])).toEqual(["sim-a", "sim-c", "All backbones"]);
      for (const row of rows) {
        expect(row[6]).toMatch(/^−?\d\.\d{3}$/); // alpha
        expect(row[7]).toMatch(/^\[−?\d\.\d{3}, −?\d\.\d{3}\]$/); // its CI
        // These runs were simulated without emotion: the automatic proxy has nothing to measure.
        expect(row[9]).toMatch(/^0 of \d+$/);
        expect(row[11]).toBe("—");
      }
      expect(rows.map((r) => [r[1], r[8]])).toEqual([
        ["4", "4"],
        ["4", "4"],
        ["8", "8"],
      ]);
    });
  },
);
