/**
 * The Benchmark page in Chromium on the real server's seeded demo database: the demo plan is
 * listed, its report shows the leaderboard (with its Emotional repair column), Table 3 as a heat map and the figures as
 * inline SVG with no console error, and a Table 3 cell leads to exactly the runs that entered it (checked
 * against the database file) and on to the run viewer. Annotators get no access; an unknown plan
 * is the 404 page; the cell links are reached with the keyboard; on a phone and a laptop the page
 * never scrolls sideways and the figures' text is drawn at 11 px or more. Table 5 lays out the
 * demo scenarios × the 15 conditions. With an expert study named, the report has its
 * human-calibrated scores and the leaderboard a column of them with their CIs (issue 33).
 */
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, loginCookie, signIn } from "../../harness/login.ts";
import { parseBenchmarkPlan } from "../../app/domain/benchmark/plan.ts";
import { createConsensusStudy } from "../../app/server/annotation/studies.server.ts";
import { planHash } from "../../app/server/benchmark/plan-file.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { calibratedEstimates } from "../../app/server/estimation/calibrated.server.ts";
import { touchBenchmarkPlan } from "../../app/server/models/benchmark-plan.server.ts";
import { loadDemoPlan } from "../../demo/benchmark/seed.ts";
import { labelLikeTheJudge } from "../unit/estimation/fixture.ts";
import { axeViolations, describeViolations } from "../../harness/axe.ts";

const PLAN_NAME = "Demo benchmark (stand-in output)";
const MEDIATOR = "demo-mediator-a"; // the generic mode; "demo-mediator-a (social)" is another row
const DOMAIN = "environmental";

interface RunFacts {
  mediated: number;
  mediator: string | null;
  config: string;
  domain: string;
}

describe.runIf(runBrowserTests)("the Benchmark page in the browser", () => {
  let server: AppServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const runFacts = (id: string): RunFacts | undefined => {
    const db = new Database(server.dbPath, { readonly: true });
    try {
      return db
        .prepare(
          "SELECT r.mediated, r.mediator_backbone AS mediator, r.config, s.domain FROM runs r JOIN scenarios s ON s.id = r.scenario_id WHERE r.id = ?",
        )
        .get(id) as RunFacts | undefined;
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`${page.url()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
    await signIn(page, server.url, DEMO.admin);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Opens the demo plan's report from the plan list; returns its hash. */
  async function openReport(): Promise<string> {
    await page.goto(`${server.url}/benchmark`);
    const plans = page.getByTestId("benchmark-plans");
    await expect(plans.textContent()).resolves.toContain("demo/benchmark/demo-plan.json");
    await plans.getByRole("link", { name: PLAN_NAME }).click();
    await page.waitForURL(/\/benchmark\/[0-9a-f]+$/);
    await page.getByTestId("report-table3").waitFor();
    return new URL(page.url()).pathname.split("/").pop()!;
  }

  const table3Cell = () =>
    page
      .getByTestId("report-table3")
      .locator("tbody tr")
      .filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${MEDIATOR}\\s*generic mediator$`) }) })
      .locator(`a.cell-link[href*="column=CG%7C${DOMAIN}"]`);

  it("lists the demo plan, shows its report, and follows a Table 3 cell to its runs and one run", async () => {
    await openReport();
    await expect(page.locator("h1").textContent()).resolves.toBe(PLAN_NAME);
    expect(await page.getByTestId("leaderboard").locator("tbody tr").count()).toBe(3);
    // The Emotional repair column: the repair table's all-conditions mean, or "—" saying how to get emotion data.
    await expect(page.getByTestId("leaderboard").locator("thead").textContent()).resolves.toContain("Emotional repair");
    const repairCells = page.getByTestId("leaderboard").locator('td[data-metric="ER"]');
    expect(await repairCells.count()).toBe(3);
    if ((await page.getByTestId("report-emotion-repair").count()) === 0) {
      await expect(page.getByTestId("report-warnings").textContent()).resolves.toContain(
        "socrates evaluate --method emotion",
      );
      for (const cell of await repairCells.all()) {
        await expect(cell.textContent()).resolves.toBe("—");
        await expect(cell.getAttribute("title")).resolves.toContain("socrates evaluate --method emotion");
      }
    } else {
      await expect(repairCells.first().textContent()).resolves.toMatch(/\(\d+\)$/);
    }
    for (const id of ["figure2", "figure3", "figure4"]) {
      expect(await page.getByTestId(`report-${id}`).locator("svg").count(), id).toBeGreaterThan(0);
    }
    // The heat map shades the cells that have a mean.
    expect(await page.getByTestId("report-table3").locator("td[style*='background']").count()).toBeGreaterThan(0);

    const cell = table3Cell();
    expect(await cell.count()).toBe(1);
    const n = Number(/\((\d+)\)/.exec((await cell.locator(".cell-n").textContent()) ?? "")![1]);
    expect(n).toBeGreaterThan(0);
    await cell.click();
    await page.waitForURL(/\/runs\?/);
    await expect(page.getByTestId("cell-runs").textContent()).resolves.toContain(
      `Table 3: mediator performance by domain: ${MEDIATOR}, CG ${DOMAIN}`,
    );

    // Each row's link reads "scenario · condition · mediator"; the run id is shown beneath it.
    const links = page.getByTestId("run-table").locator("tbody tr td:first-child a");
    const ids = await page.getByTestId("run-table").locator("tbody tr td:first-child .run-id").allTextContents();
    expect(ids).toHaveLength(n);
    for (const id of ids) {
      const facts = runFacts(id);
      expect(facts, id).toBeDefined();
      expect(
        {
          mediated: facts!.mediated,
          mediator: facts!.mediator,
          mode: JSON.parse(facts!.config).mediator_mode,
          domain: facts!.domain,
        },
        id,
      ).toEqual({
        mediated: 1,
        mediator: MEDIATOR,
        mode: "generic",
        domain: DOMAIN,
      });
    }

    await links.first().click();
    await page.waitForURL((url) => url.pathname === `/runs/${encodeURIComponent(ids[0])}`);
    await expect(page.locator("h1 .run-id").textContent()).resolves.toBe(ids[0]);
    expect(problems).toEqual([]);
  });

  it("reaches a Table 3 cell link with the keyboard and follows it with Enter", async () => {
    await openReport();
    const href = await table3Cell().getAttribute("href");
    let focused: string | null = null;
    for (let i = 0; i < 200 && focused !== href; i++) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate(() =>
        document.activeElement instanceof HTMLAnchorElement ? document.activeElement.getAttribute("href") : null,
      );
    }
    expect(focused).toBe(href);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/runs\?/);
    await page.getByTestId("cell-runs").waitFor();
    expect(problems).toEqual([]);
  });

  it("fits a phone and a laptop: no sideways page scroll, figure text drawn at 11 px or more", async () => {
    const href = `${server.url}/benchmark/${await openReport()}`;
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const sized = await context.newPage();
      await signIn(sized, server.url, DEMO.admin);
      await sized.goto(href);
      await sized.getByTestId("report-figure4").locator("svg").first().waitFor({ state: "attached" });
      const sizes = await sized.evaluate(() => ({
        scroll: document.scrollingElement!.scrollWidth,
        viewport: window.innerWidth,
        // Font size × the scale each SVG is drawn at.
        smallest: Math.min(
          // The drawings on screen (each figure also holds the other width's, hidden).
          ...[...document.querySelectorAll(".report-svg svg text")]
            .filter((t) => (t as SVGTextElement).ownerSVGElement!.getBoundingClientRect().width > 0)
            .map((t) => {
              const svg = (t as SVGTextElement).ownerSVGElement!;
              return (
                (parseFloat(getComputedStyle(t).fontSize) * svg.getBoundingClientRect().width) / svg.width.baseVal.value
              );
            }),
        ),
      }));
      expect(sizes.scroll, `${width} px`).toBeLessThanOrEqual(sizes.viewport);
      expect(sizes.smallest, `${width} px`).toBeGreaterThanOrEqual(11);
      await context.close();
    }
  });

  it("shows Table 5: each demo scenario × the 15 conditions under their axes, with the plan's runs counted from the database", async () => {
    await openReport();
    const table5 = page.getByTestId("report-table5");
    await table5.waitFor();
    const head = table5.locator("thead");
    for (const axis of [
      "General",
      "Strategic posture",
      "Party composition",
      "History length",
      "Emotional reactivity",
      "Cultural identity",
    ]) {
      expect(await head.getByRole("columnheader", { name: axis, exact: true }).count(), axis).toBe(1);
    }
    const labels = await head.locator("tr").last().locator("th").allTextContents();
    expect(labels[0]).toBe("Scenario");
    expect(labels).toHaveLength(1 + 15 + 1);
    const row = table5.locator("tbody tr").filter({ has: page.getByRole("rowheader", { name: /^demo-healthcare-1/ }) });
    const cells = await row.locator("td").allTextContents();
    // The demo plan selects emotion:CR; every run stored on that condition is one of its runs.
    const db = new Database(server.dbPath, { readonly: true });
    const runs = (
      db.prepare("SELECT count(*) AS n FROM runs WHERE condition_id = 'demo-healthcare-1:emotion:CR'").get() as {
        n: number;
      }
    ).n;
    db.close();
    expect(runs).toBeGreaterThan(0);
    expect(cells[labels.indexOf("Com-React") - 1]).toBe(`✓ ${runs}/${runs} runs`);
    expect(cells[labels.indexOf("CN-KR") - 1]).toBe("✓"); // stored, not in the plan
    expect(cells[cells.length - 1]).toBe("15 of 15");
    expect(problems).toEqual([]);
  });

  it("gives annotators no access, and an unknown plan the 404 page", async () => {
    const expert = { headers: { cookie: await loginCookie(server.url, DEMO.ada) } };
    expect((await fetch(`${server.url}/benchmark`, expert)).status).toBe(403);
    await openReport();
    expect((await fetch(page.url(), expert)).status).toBe(403);

    const res = await page.goto(`${server.url}/benchmark/000000000000`);
    expect(res?.status()).toBe(404);
    await expect(page.locator("h1").textContent()).resolves.toBe("404 Not found");
    await expect(page.locator(".error-page").textContent()).resolves.toContain(
      'No benchmark plan has the hash "000000000000"',
    );
  });

  /**
   * An expert study over the benchmark's runs, scored by Ada like the demo judge, and the demo plan
   * recorded again under another name naming it: its report has the human-calibrated table and column.
   */
  async function planWithExperts(): Promise<{
    hash: string;
    ppi: Map<string, { estimate: number; lower: number; upper: number }>;
  }> {
    const db = await openDatabase(server.dbPath);
    try {
      const studyId = await createConsensusStudy(db, {
        name: "Experts on the demo benchmark",
        pool: "expert",
        trajectories: 90,
        config: { seed: 3 },
      });
      const ada = db.$client.prepare("SELECT id FROM annotators WHERE username = 'ada'").get() as { id: number };
      await labelLikeTheJudge(db, studyId, [ada.id], "demo-judge");
      const demo = loadDemoPlan();
      const plan = parseBenchmarkPlan(
        { ...demo.plan, name: "Demo benchmark with expert labels", studies: [studyId] },
        "test plan",
      );
      const loaded = { plan, hash: planHash(plan), source: demo.source };
      await touchBenchmarkPlan(db, { hash: loaded.hash, name: plan.name, plan, source: loaded.source });
      const result = await calibratedEstimates(db, {
        loaded,
        studyIds: [studyId],
        settings: { quantities: ["outcome"] },
      });
      const ppi = new Map(
        result.rows.flatMap((r) => (r.domain === null && r.mediator !== null && r.ppi ? [[r.mediator, r.ppi]] : [])),
      );
      return { hash: loaded.hash, ppi };
    } finally {
      db.$client.close();
    }
  }

  it("shows the human-calibrated scores of a plan naming an expert study: its table and a leaderboard column with CIs", {
    timeout: 120_000,
  }, async () => {
    // The 404 test above leaves its console error behind: only this test's count.
    const before = problems.length;
    const { hash, ppi } = await planWithExperts();
    expect(ppi.size).toBeGreaterThan(0);
    await page.goto(`${server.url}/benchmark/${hash}`);
    const table = page.getByTestId("report-human-calibrated");
    await table.waitFor();
    await expect(table.locator("thead").textContent()).resolves.toContain("PPI++ [CI]");
    const pct = (x: number) => (x * 100).toFixed(1);
    const three = (x: number) => x.toFixed(3);
    const board = page.getByTestId("leaderboard");
    await expect(board.locator("thead").textContent()).resolves.toContain("Human-calibrated");
    for (const [mediator, e] of ppi) {
      // The table's outcome row: the estimate with its interval on the 0–1 scale.
      const row = table.locator("tbody tr").filter({
        has: page.getByRole("rowheader", { name: new RegExp(`^${mediator.replace(/[()]/g, "\\$&")}\\s*outcome`) }),
      });
      await expect(row.textContent()).resolves.toContain(`${three(e.estimate)} [${three(e.lower)}, ${three(e.upper)}]`);
      // The leaderboard: ×100 with the interval in brackets.
      const cell = board
        .locator("tbody tr")
        .filter({
          has: page.locator(".mediator-name", { hasText: new RegExp(`^${mediator.replace(/[()]/g, "\\$&")}(?! \\()`) }),
        })
        .locator('td[data-metric="PPI"]');
      await expect(cell.textContent()).resolves.toMatch(
        new RegExp(`^${pct(e.estimate)} \\[${pct(e.lower)}, ${pct(e.upper)}\\] \\(\\d+\\)$`),
      );
    }
    // The new table and column pass axe (WCAG A and AA) like the rest of the page.
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    expect(problems.slice(before)).toEqual([]);
  });
});
