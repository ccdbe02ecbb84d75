/**
 * Jargon (issue 32) in Chromium on the demo database: on the run viewer, the scenario page, the
 * Benchmark pages and the study dashboards every glossary term is a keyboard-reachable link whose
 * accessible description (read from Chromium's accessibility tree) is its glossary text, and whose
 * target exists on /glossary; the symbols the pages print (metric ids, parameters, C[t], α, r …)
 * are such terms. The scenario page's counts say what they count. A crowd worker's broken MTurk
 * link is explained in words, with no field path.
 */
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, signIn } from "../../harness/login.ts";

interface TermOnPage {
  text: string;
  title: string;
  href: string;
  tabIndex: number;
}

describe.runIf(runBrowserTests)(
  "symbols explained, counts labelled, no field names for crowds",
  { timeout: 180_000 },
  () => {
    let server: AppServer;
    let browser: Browser;
    let page: Page;
    const targets = new Set<string>();

    const one = <T>(sql: string): T => {
      const db = new Database(server.dbPath, { readonly: true });
      try {
        return db.prepare(sql).get() as T;
      } finally {
        db.close();
      }
    };

    beforeAll(async () => {
      server = await startAppServer();
      browser = await launchChromium();
      page = await (await browser.newContext()).newPage();
      await signIn(page, server.url, DEMO.admin);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    /** Every term on the page, and Chromium's accessible name and description for each link. */
    async function termsOf(path: string): Promise<TermOnPage[]> {
      await page.goto(server.url + path);
      await page.waitForLoadState("networkidle");
      // Terms inside collapsed sections count too: open them all, so each is in the accessibility tree.
      await page.locator("details").evaluateAll((els) => {
        for (const d of els) (d as HTMLDetailsElement).open = true;
      });
      const terms = await page.locator("a.term").evaluateAll((els) =>
        els.map((el) => ({
          text: (el as HTMLElement).innerText.replace(/\s+/g, " ").trim(),
          title: el.getAttribute("title") ?? "",
          href: el.getAttribute("href") ?? "",
          tabIndex: (el as HTMLElement).tabIndex,
        })),
      );
      const cdp = await page.context().newCDPSession(page);
      const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
        nodes: { role?: { value?: string }; name?: { value?: string }; description?: { value?: string } }[];
      };
      await cdp.detach();
      const described = new Set(
        nodes
          .filter((n) => n.role?.value === "link")
          .map((n) => `${(n.name?.value ?? "").replace(/\s+/g, " ").trim()}\u0000${n.description?.value ?? ""}`),
      );
      for (const t of terms) {
        expect(t.title, `${path}: ${t.text}`).toMatch(/^[^:]+: .{10,}/);
        expect(described.has(`${t.text}\u0000${t.title}`), `${path}: "${t.text}" has its description`).toBe(true);
        expect(t.tabIndex, `${path}: ${t.text} is reachable by keyboard`).toBe(0);
        expect(t.href).toMatch(/^\/glossary#term-/);
        targets.add(t.href.split("#")[1]);
      }
      return terms;
    }

    /** The texts of the cells a locator finds that are not wrapped in a term. */
    const bareCells = (selector: string) =>
      page
        .locator(selector)
        .evaluateAll((els) => els.filter((el) => !el.querySelector("a.term")).map((el) => el.textContent?.trim()));

    it("explains every symbol on the run viewer and the scenario page, and labels the scenario's counts", async () => {
      const run = one<{ id: string; scenario: string }>(
        `SELECT r.id, r.scenario_id AS scenario FROM runs r JOIN metric_values m ON m.subject_id = r.id
       WHERE m.subject_kind = 'run' AND m.metric = 'IT' AND r.mediated = 1 ORDER BY r.id LIMIT 1`,
      );
      const runTerms = await termsOf(`/runs/${encodeURIComponent(run.id)}`);
      const texts = new Set(runTerms.map((t) => t.text));
      for (const symbol of ["C[t]", "G[t]", "s0", "IT", "IE", "IF", "FI", "δ", "W", "h"])
        expect(texts).toContain(symbol);
      expect(await bareCells('[data-testid="metrics"] th[scope="row"]')).toEqual([]);

      await termsOf(`/scenarios/${encodeURIComponent(run.scenario)}`);
      const counts = one<{ total: number; fidelity: number }>(
        `SELECT count(*) AS total, sum(axis = 'fidelity') AS fidelity FROM conditions WHERE scenario_id = '${run.scenario}'`,
      );
      const benchmark = await page
        .locator("section.conditions > ol.condition-list > li:not(.condition-missing)")
        .count();
      const line = await page.getByTestId("condition-counts").innerText();
      expect(line).toContain(`${counts.total} stored condition`);
      expect(line).toContain(`${benchmark} of the 15 benchmark conditions`);
      if (counts.fidelity > 0) expect(line).toContain(`${counts.fidelity} persona-fidelity`);
    });

    it("explains the Benchmark pages' metric ids, parameters, hash and CIs", async () => {
      await termsOf("/benchmark");
      const hash = (await page.getByTestId("benchmark-plans").locator("tbody code").first().innerText()).trim();
      const terms = await termsOf(`/benchmark/${hash}`);
      const texts = terms.map((t) => t.text);
      for (const symbol of ["hash", "95% CIs", "s0", "δ"]) expect(texts).toContain(symbol);
      // The leaderboard's metric headers, and Table 3's metric groups, are terms.
      expect(await bareCells('[data-testid="leaderboard"] thead th[class="num"]:not(:first-child)')).toEqual([]);
      expect(await bareCells('[data-testid="report-table3"] th[scope="colgroup"]')).toEqual([]);
    });

    it("explains the statistics on the study dashboards", async () => {
      const expert = one<{ id: number }>(
        "SELECT id FROM studies WHERE type = 'consensus-snippet' AND pool = 'expert' ORDER BY id LIMIT 1",
      );
      const texts = (await termsOf(`/admin/studies/${expert.id}`)).map((t) => t.text);
      for (const symbol of ["α", "95% CI", "r", "p", "n"]) expect(texts).toContain(symbol);
      const ab = one<{ id: number }>("SELECT id FROM studies WHERE type = 'ab-reactiveness' ORDER BY id LIMIT 1");
      await termsOf(`/admin/studies/${ab.id}`);
    });

    it("has a glossary entry at every term's target", async () => {
      await page.goto(`${server.url}/glossary`);
      const ids = new Set(await page.locator(".glossary dt[id]").evaluateAll((els) => els.map((el) => el.id)));
      expect(targets.size).toBeGreaterThan(15);
      expect([...targets].filter((t) => !ids.has(t))).toEqual([]);
      await expect(page.locator("#term-it + dd").innerText()).resolves.toContain(
        "docs/metrics.md#the-metrics-one-by-one",
      );
    });

    it("tells a worker what is wrong with a broken MTurk link in words", async () => {
      const worker = await browser.newPage();
      const study = one<{ id: number }>("SELECT id FROM studies WHERE pool = 'crowd' ORDER BY id LIMIT 1");
      for (const [query, expected] of [
        [`study=${study.id}&assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE`, "The item number is missing."],
        [`study=x&item=1&assignmentId=A1`, "The study number must be a positive whole number."],
      ]) {
        await worker.goto(`${server.url}/mturk/task?${query}`);
        const text = await worker.locator("main").innerText();
        expect(text).toContain(expected);
        expect(text).not.toMatch(/\b(item|study|assignmentId|query)\s*:|Required/);
      }
      await worker.close();
    });
  },
);
