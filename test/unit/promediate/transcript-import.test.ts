/**
 * `socrates promediate transcript`: a ProMediate conversation folder (our own invented dialogue in
 * ProMediate's format: free turn order, two mediator turns in a row, a multi-line utterance, the
 * attitude and agreement records) imported into a real SQLite file, then read back by the run
 * viewer's service and component, the snippets and `socrates metrics`.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as schema from "../../../db/schema.ts";
import { Dialogue } from "../../../app/components/Dialogue.tsx";
import { MetricsPanel } from "../../../app/components/MetricsPanel.tsx";
import { BUNDLE_FORMAT, BUNDLE_VERSION, type PerTurnOutput } from "../../../app/domain/bundle.ts";
import { partyCode } from "../../../app/domain/promediate/party-names.ts";
import { exportBundle, importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { getRunMetrics, getRunView } from "../../../app/server/catalog.server.ts";
import { exportBatch } from "../../../app/crowd-channels/mturk/export.server.ts";
import { consensusTaskView, createConsensusStudy } from "../../../app/task-types/consensus-snippet/handlers.server.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";
import { runCliInProcess } from "../../helpers/cli-in-process.ts";
import { evaluationConfigJson } from "../pipeline/evaluation-helpers.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { JUDGE_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const CASES = resolve(import.meta.dirname, "../../../../shared/promediate-cases");
const FIXTURE = resolve(import.meta.dirname, "../../fixtures/promediate/williams-free");

/**
 * The scenario P1's `socrates promediate import` will make, stored here through the bundle import
 * by the shared conventions (ids, party codes, topic names = the case's topic strings). Options
 * and weights are placeholders: nothing here reads them.
 */
function williamsScenarioBundle(): string {
  const williams = JSON.parse(readFileSync(join(CASES, "williams.json"), "utf8")) as { names: Record<string, string> };
  const topicNames = (JSON.parse(readFileSync(join(CASES, "topics.json"), "utf8")) as Record<string, string[]>)
    .williams;
  const topics = topicNames.map((name, i) => ({
    id: `T${i + 1}`,
    name,
    description: name,
    options: [
      { label: "A", description: "first option" },
      { label: "B", description: "second option" },
    ],
  }));
  const weights = [5, 3, 2];
  const parties = Object.keys(williams.names)
    .filter((n) => n !== "Mediator")
    .map((name) => ({
      id: partyCode(name),
      name,
      role: "sub-committee member",
      relation: "colleagues at Williams Medical Center",
      preferences: Object.fromEntries(topics.map((t) => [t.id, "as stated in the case"])),
      weights: Object.fromEntries(topics.map((t, i) => [t.id, weights[i]])),
    }));
  return JSON.stringify({
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    scenarios: [
      {
        id: "promediate-williams",
        domain: "healthcare",
        title: "Williams Medical Center",
        background: "A hospital sub-committee sets a drug consultation policy.",
        topics,
        parties,
        source: { kind: "manual", note: "test stand-in for the case importer" },
      },
    ],
    conditions: [
      { id: "promediate-williams:general", scenario_id: "promediate-williams", axis: "general", variant: "default" },
    ],
  });
}

let ctx: Awaited<ReturnType<typeof tempDb>>;
let folder: string;
let env: Record<string, string>;

beforeEach(async () => {
  ctx = await tempDb();
  await importBundleFiles(ctx.db, [{ file: "williams-scenario.json", text: williamsScenarioBundle() }]);
  // Laid out as ProMediate writes its output: output/<case>/<method>/<model>_<response>_<mode>_<freq>_<id>.
  folder = join(ctx.dir, "output", "williams", "Social", "gpt-4.1_separate_accommodating_less_5");
  mkdirSync(folder, { recursive: true });
  cpSync(FIXTURE, folder, { recursive: true });
  env = { SOCRATES_DB: ctx.path };
});
afterEach(() => ctx.cleanup());

const transcript = (...extra: string[]) =>
  runCliInProcess(["promediate", "transcript", folder, "--case", "williams", ...extra], env);

async function storedRun() {
  const run = (await ctx.db.select().from(schema.runs).limit(1))[0];
  if (!run) throw new Error("no run stored");
  const turns = await ctx.db.select().from(schema.turns).where(eq(schema.turns.runId, run.id));
  const evaluation = (
    await ctx.db.select().from(schema.evaluations).where(eq(schema.evaluations.runId, run.id)).limit(1)
  )[0];
  return { run, turns, evaluation };
}

describe("socrates promediate transcript", () => {
  it("stores the log as a free-order run with its per-turn evaluation", async () => {
    const result = await transcript();
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const { run, turns, evaluation } = await storedRun();
    expect(result.stdout).toContain(`imported run ${run.id} and evaluation ${evaluation?.id}`);
    // The continuation line with two ": " in it is counted as a line of its own by ProMediate's scripts.
    expect(result.stdout).toMatch(/warning: conversation\.txt: line 19: a continuation of turn 7/);
    expect(run).toMatchObject({
      conditionId: "promediate-williams:general",
      turnOrder: "free",
      mediated: true,
      mediatorBackbone: "promediate-social:gpt-4.1",
      outcome: "budget",
      partyOrder: ["BRADLEY", "PATRICIA", "ROBERT", "STEWARD", "SUSAN"],
      totalTurns: 10,
      mediatorTurns: 3,
    });
    expect(turns.map((t) => t.speaker)).toEqual([
      "MEDIATOR",
      "BRADLEY",
      "SUSAN",
      "SUSAN",
      "MEDIATOR",
      "MEDIATOR",
      "ROBERT",
      "PATRICIA",
      "STEWARD",
      "BRADLEY",
    ]);
    expect(turns[6].utterance).toBe(
      "I have three points.\nFirst: pharmacists: they are already stretched thin.\n\nSecond, mandatory consultation only outside a physician's specialty seems fair to me.",
    );
    expect(turns[0].utterance).toBe("Good morning, all. Shall we begin with how consultations should work?");

    // Turn 7's state is the record after its last counted line (index 8); its scores come from the
    // slots of Robert's pairs, filed under the pair they belong to.
    const records = JSON.parse(readFileSync(join(FIXTURE, "agreement_scores.json"), "utf8"));
    const output = evaluation?.output as PerTurnOutput;
    expect(output.initial).toHaveLength(3 * 10);
    const robert = output.turns.find((t) => t.turn_id === 7);
    expect(robert?.attitudes).toEqual({
      T1: "mandatory consultation outside the specialty",
      T2: "No Mention",
      T3: "No Mention",
    });
    // Pairs by names order: (BRADLEY, ROBERT) is slot 1, (ROBERT, SUSAN) slot 8.
    const withSusan = robert?.agreement?.find((a) => a.with === "SUSAN" && a.topic === "T1");
    expect(withSusan?.overall).toBe(records[8]["Consultation procedures"][8].overall_consensus_score);
    expect(withSusan?.dimensions.shared_goals).toBe(records[8]["Consultation procedures"][8].shared_goals);
    expect(robert?.agreement).toHaveLength(4);
    const patricia = output.turns.find((t) => t.turn_id === 8);
    expect(patricia).toEqual({
      turn_id: 8,
      speaker: "PATRICIA",
      attitudes: { T1: "No Mention", T2: "No Mention", T3: "No Mention" },
      agreement: [],
    });
    // Mediator turns carry no entry: the records say nothing about what they address.
    expect(output.turns.map((t) => t.turn_id)).toEqual([2, 3, 4, 7, 8, 9, 10]);
  });

  it("a second import of the same folder changes nothing", async () => {
    expect((await transcript()).status).toBe(0);
    const before = await tableCounts(ctx.db);
    const again = await transcript();
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(
      /run promediate-williams-[0-9a-f]{16} and its evaluation already stored and unchanged/,
    );
    expect(await tableCounts(ctx.db)).toEqual(before);
  });

  it("--case may name the case file: its config order is read, and the same folder is the same run", async () => {
    expect((await transcript()).status).toBe(0);
    const before = await tableCounts(ctx.db);
    const byFile = await runCliInProcess(
      ["promediate", "transcript", folder, "--case", join(CASES, "williams.json")],
      env,
    );
    expect(byFile.stderr).toBe("");
    expect(byFile.stdout).toMatch(/already stored and unchanged/);
    expect(byFile.stdout).not.toMatch(/config order/);
    expect(await tableCounts(ctx.db)).toEqual(before);
  });

  it("--dry-run writes nothing", async () => {
    const before = await tableCounts(ctx.db);
    const result = await transcript("--dry-run");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/would import run promediate-williams-/);
    expect(await tableCounts(ctx.db)).toEqual(before);
  });

  it("shows in the run viewer: the free order, both mediator turns in a row and the multi-line turn", async () => {
    await transcript();
    const view = await getRunView(ctx.db, (await storedRun()).run.id);
    expect(view?.run.turnOrder).toBe("free");
    expect(view?.snippets.map((s) => [s.startTurn, s.endTurn, s.isPartial])).toEqual([
      [1, 8, false],
      [9, 10, true],
    ]);
    if (!view) throw new Error("no run view");
    const props = { turns: view.turns, parties: view.played.parties, showThoughts: false, snippets: view.snippets };
    const html = renderToString(createElement(Dialogue, props)).replace(/<!-- -->/g, "");
    expect(html).toContain("First: pharmacists: they are already stretched thin.\n\nSecond, mandatory");
    expect(html.match(/class="turn mediator"/g)).toHaveLength(3);
    expect(html).toContain('id="turn-5"');
    expect(html).toContain("Snippet 2 · turns 9–10 · partial");
  });

  it("yields metrics: each value computed or a counted null, none failing", async () => {
    await transcript();
    const runId = (await storedRun()).run.id;
    const result = await runCliInProcess(["metrics", "--run", runId], env);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const rows = await ctx.db.select().from(schema.metricValues).where(eq(schema.metricValues.subjectId, runId));
    const byMetric = Object.fromEntries(rows.map((r) => [r.metric, r.value]));
    // IE and IT read a topic-localized evaluation, which a ProMediate transcript does not bring.
    for (const metric of ["CC", "TLE", "RL", "ME", "IF", "FI"]) expect(byMetric).toHaveProperty(metric);
    // Three mediator turns among seven party turns; the first intervention at turn 1 of 10.
    expect(byMetric.IF).toBeCloseTo(3 / 7, 10);
    expect(byMetric.FI).toBeCloseTo(1 / 10, 10);
    // CC recomputed from the raw records: G after turn t is the mean, over topics and pair slots, of
    // the five dimensions in the state after the turn's last counted line (turn 7 has two lines).
    const records = JSON.parse(readFileSync(join(FIXTURE, "agreement_scores.json"), "utf8")) as Record<
      string,
      Record<string, number>[]
    >[];
    const stateAfterTurn = [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11];
    const dims = [
      "shared_goals",
      "common_understanding",
      "agreement_on_terms",
      "tone_and_willingness",
      "shared_decision_making",
    ];
    const G = stateAfterTurn.map((k) => {
      const pairs = Object.values(records[k]).flat();
      return pairs.reduce((sum, p) => sum + dims.reduce((a, d) => a + p[d], 0) / 5, 0) / pairs.length;
    });
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    // T = 10 turns: windows of w = min(10, ⌊10/2⌋) = 5 turns, G[1..5] and G[6..10].
    expect(byMetric.CC).toBeCloseTo(mean(G.slice(6, 11)) - mean(G.slice(1, 6)), 10);
    // The run page's metrics panel shows them under the transcript's evaluation.
    const view = await getRunView(ctx.db, runId);
    if (!view) throw new Error("no run view");
    const metrics = await getRunMetrics(ctx.db, runId);
    expect(Object.keys(metrics.evaluations)).toEqual([`${runId}:per-turn:promediate-judge`]);
    const panel = renderToString(
      createElement(MetricsPanel, { run: view.run, metrics, evaluations: view.evaluations }),
    ).replace(/<!-- -->/g, "");
    expect(panel).toContain("promediate-judge");
    expect(panel).toMatch(/\bCC\b/);
    expect(panel).toMatch(/\bTLE\b/);
  });

  it("the topic-localized evaluator, the per-turn baseline and the MI judge score the free run (stand-in over HTTP), so IE and IT follow", async () => {
    await transcript();
    const runId = (await storedRun()).run.id;
    const mock = await startMockLlm({ respond: standInResponder({ roles: JUDGE_ROLES }) });
    try {
      const config = join(ctx.dir, "socrates.config.json");
      writeFileSync(config, JSON.stringify(evaluationConfigJson(mock.url)));
      const judged = { ...env, SOCRATES_CONFIG: config };
      for (const method of ["topic", "per-turn", "mi"]) {
        const result = await runCliInProcess(["evaluate", "--run", runId, "--method", method], judged);
        expect(result.status).toBe(0);
        expect(result.stdout).toMatch(/1 stored, 0 skipped, 0 failed/);
      }
      expect((await runCliInProcess(["metrics", "--run", runId], judged)).status).toBe(0);
    } finally {
      await mock.close();
    }
    const metrics = await ctx.db.select().from(schema.metricValues).where(eq(schema.metricValues.subjectId, runId));
    const topicRows = metrics.filter((r) => r.evaluationId.includes(":topic-localized:"));
    expect(topicRows.map((r) => r.metric).sort()).toEqual(expect.arrayContaining(["IE", "IT"]));
    expect(metrics.map((r) => r.metric)).toContain("MI");
  });

  it("gives snippet annotation items: the task view and the MTurk batch keep the turns and the line breaks", async () => {
    await transcript();
    const studyId = await createConsensusStudy(ctx.db, {
      name: "ProMediate transcript",
      pool: "crowd",
      trajectories: 1,
    });
    const items = await ctx.db.select().from(schema.studyItems).where(eq(schema.studyItems.studyId, studyId));
    expect(items).toHaveLength(2);
    const view = await consensusTaskView(ctx.db, items[0]);
    expect(view.snippet.map((t) => t.speakerId)).toEqual([
      "MEDIATOR",
      "BRADLEY",
      "SUSAN",
      "SUSAN",
      "MEDIATOR",
      "MEDIATOR",
      "ROBERT",
      "PATRICIA",
    ]);
    const out = join(ctx.dir, "batch");
    const summary = await exportBatch(ctx.db, studyId, { outDir: out, now: new Date("2030-01-02T03:04:05Z") });
    const csv = readFileSync(summary.files.inputCsv, "utf8");
    expect(csv).toContain("<p>I have three points.<br>First: pharmacists: they are already stretched thin.</p>");
    expect(csv).toContain(
      "<p>Second, mandatory consultation only outside a physician&#39;s specialty seems fair to me.</p>",
    );
  });

  it("exports the run with turn_order free and reimports the export unchanged", async () => {
    await transcript();
    const bundle = await exportBundle(ctx.db);
    expect(bundle.runs[0].turn_order).toBe("free");
    const summary = await importBundleFiles(ctx.db, [{ file: "export.json", text: JSON.stringify(bundle) }]);
    expect(summary.inserted.runs).toBe(0);
    expect(summary.unchanged.runs).toBe(1);
  });
});

describe("damaged transcript folders are refused, naming file and line or JSON path", () => {
  const damaged: { name: string; damage: () => void; expected: RegExp }[] = [
    {
      name: "an unknown speaker",
      damage: () => {
        const log = readFileSync(join(folder, "conversation.txt"), "utf8");
        writeFileSync(join(folder, "conversation.txt"), log.replace("Turn 8: Patricia:", "Turn 8: Zelda:"));
      },
      expected: /conversation\.txt: line 22: "Zelda" is neither the mediator \("Mediator"\) nor a party/,
    },
    {
      name: "a skipped turn number",
      damage: () => {
        const log = readFileSync(join(folder, "conversation.txt"), "utf8");
        writeFileSync(join(folder, "conversation.txt"), log.replace("🔄 Turn 9:", "🔄 Turn 12:"));
      },
      expected: /conversation\.txt: line 23: expected turn 9, got "🔄 Turn 12"/,
    },
    {
      name: "a dimension score out of range",
      damage: () => {
        const records = JSON.parse(readFileSync(join(folder, "agreement_scores.json"), "utf8"));
        records[3]["Allocation of costs"][2].agreement_on_terms = 1.5;
        writeFileSync(join(folder, "agreement_scores.json"), JSON.stringify(records));
      },
      expected:
        /agreement_scores\.json: \$\[3\]\["Allocation of costs"\]\[2\]\.agreement_on_terms: a dimension score is a number in \[0, 1\]/,
    },
    {
      name: "records that do not match the log's lines",
      damage: () => {
        const records = JSON.parse(readFileSync(join(folder, "attitudes.json"), "utf8"));
        writeFileSync(join(folder, "attitudes.json"), JSON.stringify(records.slice(0, 10)));
      },
      expected: /attitudes\.json: \$: expected a list of 12 states .*, got 10/,
    },
    {
      // State 3 is Susan's "after" at turn 3 and her "before" at turn 4: one problem, named once.
      name: "a party's attitudes that are not an object",
      damage: () => {
        const records = JSON.parse(readFileSync(join(folder, "attitudes.json"), "utf8"));
        records[3].Susan = "costs";
        writeFileSync(join(folder, "attitudes.json"), JSON.stringify(records));
      },
      expected:
        /\(1 problem\):\n {2}attitudes\.json: \$\[3\]\.Susan: a party's attitudes are an object keyed by topic\n/,
    },
    {
      name: "invalid JSON",
      damage: () => writeFileSync(join(folder, "agreement_scores.json"), "[{"),
      expected: /agreement_scores\.json: \$: invalid JSON/,
    },
    {
      name: "one record file without the other",
      damage: () => rmSync(join(folder, "attitudes.json")),
      expected: /agreement_scores\.json: attitudes\.json is missing beside it/,
    },
  ];
  for (const { name, damage, expected } of damaged) {
    it(name, async () => {
      damage();
      const before = await tableCounts(ctx.db);
      const result = await transcript();
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/transcript refused, nothing was written/);
      expect(result.stderr).toMatch(expected);
      expect(await tableCounts(ctx.db)).toEqual(before);
    });
  }

  it("a case whose scenario is not imported yet", async () => {
    const result = await runCliInProcess(["promediate", "transcript", folder, "--case", "river"], env);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/scenario "promediate-river" and its general condition are not stored/);
  });
});
