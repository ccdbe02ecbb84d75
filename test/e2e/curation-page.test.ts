/**
 * The curation record on the research pages, in Chromium against the real server: a curated
 * scenario shows the seed report and sources it recasts beside it, and its acceptance record
 * (each unmediated replay, its outcome, a link to the run); a demo scenario shows neither; the
 * scenarios page sums up accepted and rejected candidates per domain. The database is prepared
 * as a curation would leave it: the curated scenario and its replays imported as a bundle, its
 * seed and candidates (one accepted, two rejected) stored through the curation's repositories.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../demo/seed.ts";
import { importBundleFiles } from "../../app/server/bundle-store.server.ts";
import type { Db } from "../../app/server/db.server.ts";
import { insertCandidate } from "../../app/server/models/curation-candidate.server.ts";
import { insertSeed } from "../../app/server/models/seed.server.ts";
import type { Domain } from "../../app/domain/bundle.ts";
import type { SeedReport } from "../../app/domain/curation/seed.ts";
import { openAsAdmin } from "../helpers/admin-browser.ts";
import type { AppServer } from "../../harness/app-server.ts";
import { runBrowserTests } from "../../harness/browser.ts";
import { tempDb } from "../../harness/temp-db.ts";

const CURATED = "curated-transactional-1";
const ORPHAN = "curated-transactional-2";
const runIdOf = (replay: number) => `${CURATED}:general:unmediated:r${replay}`;

/**
 * The demo transactional scenario as if curated: its general condition and three unmediated replays ending in impasse.
 */
function curatedBundle() {
  const demo = JSON.parse(readFileSync("demo/demo-transactional.json", "utf8"));
  const scenario = { ...demo.scenarios[0], id: CURATED, title: "A Curated Oven Dispute", source: { kind: "curated" } };
  const condition = { id: `${CURATED}:general`, scenario_id: CURATED, axis: "general", variant: "default" };
  const unmediated = demo.runs.find((r: { mediated: boolean }) => !r.mediated);
  const runs = [1, 2, 3].map((replay) => ({ ...unmediated, id: runIdOf(replay), condition_id: condition.id }));
  // Curated elsewhere and imported: no seed or candidate in this database.
  const orphan = { ...scenario, id: ORPHAN, title: "A Curated Scenario Without Its Record" };
  return {
    format: "socrates-bundle",
    version: 1,
    scenarios: [scenario, orphan],
    conditions: [condition],
    runs,
    matched_pairs: [],
    evaluations: [],
  };
}

const REPORT = {
  title: "Bakery v. oven refurbisher over a failed trial",
  summary: "A bakery and a refurbisher disagree over price and warranty after a trial oven failed.",
  parties: [
    { name: "The bakery", description: "A six-person bakery with a wholesale contract" },
    { name: "The refurbisher", description: "A kitchen equipment refurbisher" },
  ],
  issues: ["Price after the failed trial", "Warranty length"],
  timeline: [
    { date: "2023-03-03", event: "Deposit paid" },
    { date: "2023-03-20", event: "Trial oven fails" },
  ],
  tensions: ["Small-business dependence on a single supplier"],
  status: "Unresolved; small-claims filing threatened",
};
const SOURCES = [
  { url: "https://news.example.org/bakery-oven", title: "Local news: the bakery's oven" },
  { url: "javascript:alert(1)", title: "A source with an unsafe address" },
];

/** A valid seed report for a rejected candidate: only its title matters here. */
function briefReport(title: string) {
  return {
    ...REPORT,
    title,
    parties: [
      { name: `${title}: one side`, description: "a party" },
      { name: `${title}: other side`, description: "a party" },
    ],
    sources: [{ url: "https://example.org/" }],
  };
}

/** Seeds and candidates through the curation's own repositories, as `socrates curate` stores them. */
async function insertCurationRecord(db: Db) {
  const seedId = async (domain: Domain, report: SeedReport) => {
    const result = await insertSeed(db, { domain, report, sourceKind: "search-tools", provenance: { attempt: 0 } });
    if (!("stored" in result)) throw new Error(`seed "${report.title}" was already stored`);
    return result.stored.id;
  };
  const replays = [1, 2, 3].map((replay) => ({ replay, outcome: "impasse", runId: runIdOf(replay) }));
  await insertCandidate(db, {
    seedId: await seedId("transactional", { ...REPORT, sources: SOURCES }),
    domain: "transactional",
    status: "accepted",
    candidate: {},
    replays,
    scenarioId: CURATED,
  });
  const invalid = await seedId("healthcare", briefReport("Clinic merger dispute"));
  await insertCandidate(db, {
    seedId: invalid,
    domain: "healthcare",
    status: "rejected",
    rejection: "invalid",
    reason: "the topics: at most 4 topics, got 5",
  });
  const resolved = await seedId("healthcare", briefReport("Nurse rota dispute"));
  const resolvedReplays = [
    { replay: 1, outcome: "impasse" },
    { replay: 2, outcome: "resolved" },
  ];
  await insertCandidate(db, {
    seedId: resolved,
    domain: "healthcare",
    status: "rejected",
    rejection: "resolved",
    reason: "resolved on replay 2",
    candidate: {},
    replays: resolvedReplays,
  });
}

describe.runIf(runBrowserTests)("curation record on the scenario pages, in Chromium", { timeout: 120_000 }, () => {
  const cleanups: (() => unknown)[] = [];
  let server: AppServer;
  let page: Page;

  beforeAll(async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await seedDemo(t.db);
    await importBundleFiles(t.db, [{ file: "curated.json", text: JSON.stringify(curatedBundle()) }]);
    await insertCurationRecord(t.db);
    ({ server, page } = await openAsAdmin(t, cleanups));
  });
  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("shows a curated scenario's seed report beside it, with its sources as safe links", async () => {
    await page.goto(`${server.url}/scenarios/${CURATED}`);
    await page.getByRole("heading", { name: "A Curated Oven Dispute" }).waitFor();
    const report = page.locator(".seed-report");
    await expect(report.getByRole("heading", { name: "Seed report" }).isVisible()).resolves.toBe(true);
    const text = await report.innerText();
    for (const expected of [
      REPORT.title,
      REPORT.summary,
      REPORT.status,
      ...REPORT.issues,
      ...REPORT.tensions,
      "The bakery: A six-person bakery",
      "2023-03-20",
      "Trial oven fails",
    ])
      expect(text).toContain(expected);
    // Beside the scenario: both in the one two-column layout.
    await expect(page.locator(".curation-layout .background").count()).resolves.toBe(1);

    const link = report.getByRole("link", { name: SOURCES[0].title });
    await expect(link.getAttribute("href")).resolves.toBe(SOURCES[0].url);
    await expect(link.getAttribute("rel")).resolves.toBe("noopener noreferrer");
    // The unsafe address is shown as text, never as a link.
    await expect(report.getByText(SOURCES[1].title).isVisible()).resolves.toBe(true);
    await expect(report.getByRole("link", { name: SOURCES[1].title }).count()).resolves.toBe(0);
    await expect(page.locator('a[href^="javascript:"]').count()).resolves.toBe(0);
  });

  it("shows its acceptance record: each unmediated replay, its outcome and a link to its run", async () => {
    await page.goto(`${server.url}/scenarios/${CURATED}`);
    const rows = page.locator(".acceptance-table tbody tr");
    await rows.first().waitFor();
    await expect(rows.count()).resolves.toBe(3);
    for (const replay of [1, 2, 3]) {
      const row = rows.nth(replay - 1);
      await expect(row.locator("td").first().innerText()).resolves.toBe(String(replay));
      await expect(row.locator(".outcome").innerText()).resolves.toBe("impasse");
      await expect(row.getByRole("link").getAttribute("href")).resolves.toBe(
        `/runs/${encodeURIComponent(runIdOf(replay))}`,
      );
    }
    await rows.nth(1).getByRole("link").click();
    await page.waitForURL((url) => url.pathname === `/runs/${encodeURIComponent(runIdOf(2))}`);
    await page.getByRole("heading", { name: new RegExp(`Unmediated run ${runIdOf(2)}`) }).waitFor();
  });

  it("shows neither for a scenario that was not curated", async () => {
    await page.goto(`${server.url}/scenarios/demo-healthcare-1`);
    await page.locator(".background").waitFor();
    await expect(page.getByRole("heading", { name: "Seed report" }).count()).resolves.toBe(0);
    await expect(page.getByRole("heading", { name: "Acceptance record" }).count()).resolves.toBe(0);
    await expect(page.locator(".curation-layout").count()).resolves.toBe(0);
    await expect(page.getByText(/Curated elsewhere/).count()).resolves.toBe(0);
  });

  it("says so, without failing, for a curated scenario whose record this database does not hold", async () => {
    await page.goto(`${server.url}/scenarios/${ORPHAN}`);
    await page.getByText(/Curated elsewhere: this database holds no seed report or acceptance record/).waitFor();
    await expect(page.getByRole("heading", { name: "Seed report" }).count()).resolves.toBe(0);
  });

  it("sums up curation per domain on the scenarios page, rejected candidates by reason", async () => {
    await page.goto(`${server.url}/scenarios`);
    const runsOf = (title: string) =>
      page
        .locator("tr", { has: page.getByRole("link", { name: title, exact: true }) })
        .locator("td")
        .last()
        .innerText();
    await expect(runsOf("A Curated Oven Dispute")).resolves.toBe("3");
    await expect(runsOf("A Curated Scenario Without Its Record")).resolves.toBe("0");
    const summary = page.locator(".curation-summary");
    await summary.waitFor();
    const cells = async (domain: string) =>
      summary
        .locator("tr", { has: page.locator(".domain", { hasText: domain }) })
        .locator("td")
        .allInnerTexts();
    await expect(cells("transactional")).resolves.toEqual(["transactional", "1", "0", "0", "100%"]);
    await expect(cells("healthcare")).resolves.toEqual(["healthcare", "0", "1", "1", "0%"]);
    await page.getByText("Rejected candidates (2)").click();
    const rejected = await page.locator(".rejected-candidates").innerText();
    expect(rejected).toContain("Clinic merger dispute — invalid scenario: the topics: at most 4 topics, got 5");
    expect(rejected).toContain("Nurse rota dispute — resolved on replay: resolved on replay 2");
  });
});
