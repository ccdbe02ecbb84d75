/**
 * Sizes the database for a real benchmark: 40 scenarios × 15 conditions × 9 mediator settings
 * (8 mediators + none) = 5,400 runs of 30 turns, each with a topic-localized and a per-turn
 * evaluation. Prints the import time, the file size, and the latency of the run viewer's and
 * run list's queries. Synthetic data; figures only, no pass/fail.
 *
 *   npm run bench:db        (SCALE=0.1 for a quick look)
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASELINE_DIMENSIONS, CONDITION_VARIANTS, DOMAINS, type BundleInput, type ConditionAxis } from "../app/domain/bundle.ts";
import { createRng, randomInt } from "../app/domain/stats/rng.ts";
import { exportBundle, importBundleFiles } from "../app/server/bundle-store.server.ts";
import { getRunView, listRuns } from "../app/server/catalog.server.ts";
import { openDatabase } from "../app/server/db.server.ts";

const SCALE = Number(process.env.SCALE ?? 1);
const SCENARIOS = Math.max(1, Math.round(40 * SCALE));
const MEDIATORS = ["none", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"];
const TURNS = 30;
const TOPICS = ["T1", "T2", "T3", "T4"];
const rng = createRng(2024);

function syntheticBundle(): BundleInput {
  const bundle: Required<Pick<BundleInput, "scenarios" | "conditions" | "runs" | "matched_pairs" | "evaluations">> & BundleInput = {
    format: "socrates-bundle", version: 1, scenarios: [], conditions: [], runs: [], matched_pairs: [], evaluations: [],
  };
  const conditionList = (Object.keys(CONDITION_VARIANTS) as ConditionAxis[]).flatMap((axis) => CONDITION_VARIANTS[axis].map((variant) => ({ axis, variant })));
  for (let s = 0; s < SCENARIOS; s++) {
    const body = {
      background: `Synthetic background ${s}. `.repeat(20),
      topics: TOPICS.map((id) => ({ id, name: `Topic ${id}`, description: "What is at stake.", options: ["A", "B", "C"].map((label) => ({ label, description: `Option ${label}` })) })),
      parties: ["P1", "P2"].map((id, i) => ({ id, name: `Party ${id}`, role: "Objective.", relation: "Rival.", preferences: Object.fromEntries(TOPICS.map((t) => [t, "A stance."])), weights: i === 0 ? { T1: 4, T2: 3, T3: 2, T4: 1 } : { T1: 1, T2: 2, T3: 3, T4: 4 } })),
    };
    const scenarioId = `bench-${s}`;
    bundle.scenarios.push({ id: scenarioId, domain: DOMAINS[s % DOMAINS.length], title: `Bench scenario ${s}`, ...body, source: { kind: "manual" } });
    for (const { axis, variant } of conditionList) {
      const conditionId = `${scenarioId}:${axis}:${variant}`;
      bundle.conditions.push({ id: conditionId, scenario_id: scenarioId, axis, variant, ...(axis === "general" ? {} : { expanded: body }) });
      for (const mediator of MEDIATORS) {
        const runId = `${conditionId}:${mediator}`;
        const mediated = mediator !== "none";
        const turns = [];
        let partyTurn = 0;
        while (turns.length < TURNS) {
          const speaker = partyTurn % 2 === 0 ? "P1" : "P2";
          turns.push({ turn_id: turns.length + 1, speaker, role: "party" as const, utterance: `Utterance ${turns.length + 1} from ${speaker}.`, thought: "A private thought.", signal: "continue" as const });
          partyTurn++;
          if (mediated && turns.length < TURNS && rng() < 0.2) turns.push({ turn_id: turns.length + 1, speaker: "MEDIATOR", role: "mediator" as const, utterance: "A mediator remark." });
        }
        bundle.runs.push({ id: runId, condition_id: conditionId, mediated, mediator_backbone: mediated ? mediator : null, simulator_backbone: "sim", outcome: "budget", party_order: ["P1", "P2"], turns, config: {}, seed: 1 });
        if (mediated) bundle.matched_pairs.push({ id: `${runId}:pair`, condition_id: conditionId, mediated_run_id: runId, unmediated_run_id: `${conditionId}:none` });
        const located = (n: number) => [...new Set(Array.from({ length: n }, () => 1 + randomInt(rng, TURNS)))].sort((a, b) => a - b);
        bundle.evaluations.push({
          id: `${runId}:topic`, run_id: runId, method: "topic-localized", backbone: "judge",
          output: Object.fromEntries(TOPICS.map((topic) => {
            const at = located(6);
            return [topic, { relevant_turns: at, agreement_score: at.map((turn_id) => ({ turn_id, reason: "r", score: 1 + randomInt(rng, 5), party_stances: { P1: "(A)", P2: "(B)" } })) }];
          })),
        });
        const dims = () => Object.fromEntries(BASELINE_DIMENSIONS.map((d) => [d, Math.round(rng() * 100) / 100])) as Record<(typeof BASELINE_DIMENSIONS)[number], number>;
        bundle.evaluations.push({
          id: `${runId}:per-turn`, run_id: runId, method: "per-turn", backbone: "judge",
          output: {
            initial: TOPICS.map((topic) => ({ pair: ["P1", "P2"] as [string, string], topic, dimensions: dims() })),
            turns: turns.map((t) => t.role === "mediator"
              ? { turn_id: t.turn_id, speaker: t.speaker, mentioned_topics: ["T1"] }
              : { turn_id: t.turn_id, speaker: t.speaker, attitudes: Object.fromEntries(TOPICS.map((k) => [k, "No Mention"])), agreement: TOPICS.map((topic) => ({ with: t.speaker === "P1" ? "P2" : "P1", topic, dimensions: dims() })) }),
          },
        });
      }
    }
  }
  return bundle;
}

function time<T>(fn: () => T): [T, number] {
  const start = performance.now();
  const value = fn();
  return [value, (performance.now() - start) / 1000];
}

const dir = mkdtempSync(join(tmpdir(), "socrates-bench-db-"));
try {
  const [text, genSeconds] = time(() => JSON.stringify(syntheticBundle()));
  const db = openDatabase(join(dir, "bench.db"));
  const [summary, importSeconds] = time(() => importBundleFiles(db, [{ file: "synthetic.json", text }]));
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  const size = statSync(join(dir, "bench.db")).size;
  const runIds = (db.$client.prepare("SELECT id FROM runs").all() as { id: string }[]).map((r) => r.id);
  const sample = Array.from({ length: 200 }, () => runIds[randomInt(rng, runIds.length)]);
  const [, viewSeconds] = time(() => sample.forEach((id) => getRunView(db, id)));
  const [, listSeconds] = time(() => listRuns(db, { scenarioId: "bench-0" }));
  const [, reimportSeconds] = time(() => importBundleFiles(db, [{ file: "synthetic.json", text }]));
  const [, exportSeconds] = time(() => exportBundle(db));
  const rows = (table: string) => (db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  console.log(`Synthetic benchmark database (scale ${SCALE})`);
  console.table({
    runs: { value: summary.inserted.runs },
    turns: { value: rows("turns") },
    snippets: { value: rows("snippets") },
    evaluations: { value: summary.inserted.evaluations },
    "evaluation_scores rows": { value: rows("evaluation_scores") },
    "bundle size (MB)": { value: +(text.length / 1e6).toFixed(1) },
    "database size (MB)": { value: +(size / 1e6).toFixed(1) },
    "generate bundle (s)": { value: +genSeconds.toFixed(2) },
    "import, one transaction (s)": { value: +importSeconds.toFixed(2) },
    "re-import, all unchanged (s)": { value: +reimportSeconds.toFixed(2) },
    "export all (s)": { value: +exportSeconds.toFixed(2) },
    "run viewer query, mean (ms)": { value: +((viewSeconds / sample.length) * 1000).toFixed(2) },
    "run list for one scenario (ms)": { value: +(listSeconds * 1000).toFixed(2) },
  });
  db.$client.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
