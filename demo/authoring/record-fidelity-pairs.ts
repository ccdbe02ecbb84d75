/**
 * How the demo's persona-fidelity A/B pairs were made (demo data, not model output).
 *
 * Runs the fidelity generator (app/server/fidelity) against the offline stand-in endpoint
 * (app/server/llm/stand-in, in process: canned, deterministic replies whose tone follows each party's own
 * reactiveness line) for two simulator backbones named demo-sim-alpha and demo-sim-beta, over
 * the demo scenarios, and writes the fidelity conditions, their runs and the pairs to
 * demo/demo-ab-reactiveness.json. Deterministic: re-running writes the same bytes.
 *   npx tsx demo/authoring/record-fidelity-pairs.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BUNDLE_FORMAT, BUNDLE_VERSION, FIDELITY_AXIS, type Bundle } from "../../app/domain/bundle.ts";
import { exportBundle, importBundleFiles } from "../../app/server/bundle-store.server.ts";
import { generateFidelityPairs } from "../../app/server/fidelity/generate.server.ts";
import { createLlm } from "../../app/server/llm/client.server.ts";
import { parseLlmConfig } from "../../app/server/llm/config.server.ts";
import { DEMO_DIR, readBundleDir } from "../seed.ts";
import { withScratchStandIn } from "./scratch.ts";
import { SIMULATION_ROLES, standInResponder } from "../../app/llm-roles/stand-in.ts";

export const AB_DEMO_FILE = "demo-ab-reactiveness.json";
export const DEMO_SIMULATORS = ["demo-sim-alpha", "demo-sim-beta"] as const;
const PAIRS_PER_SIMULATOR = 8;
const TURN_BUDGET = 6;
// A seed whose draw covers every demo scenario and has three 0-against-1 pairs (gold candidates).
const SEED = 6;

const DESCRIPTION =
  "Demo data written for SoCRATES Studio — fictional, not from the SoCRATES paper or any real case. Persona-fidelity A/B pairs " +
  `recorded by demo/authoring/record-fidelity-pairs.ts from the offline stand-in endpoint (canned, deterministic replies, not a model) ` +
  `for two simulator backbone names (${DEMO_SIMULATORS.join(", ")}): ${PAIRS_PER_SIMULATOR} pairs each over the demo scenarios, ` +
  `unmediated runs of at most ${TURN_BUDGET} party turns, the parties reporting their emotion every turn. In each pair the two runs play fidelity conditions that differ only in the ` +
  "target party's reactiveness level; every other party stays at the reference level (opponent_level).";

/** Records the pairs in a scratch database and returns them as a bundle (conditions, runs, pairs). */
export async function recordFidelityPairs(): Promise<Bundle> {
  return withScratchStandIn(
    "socrates-fidelity-demo-",
    standInResponder({ roles: SIMULATION_ROLES }),
    async (db, url) => {
      await importBundleFiles(
        db,
        readBundleDir(DEMO_DIR).filter((f) => !f.file.endsWith(AB_DEMO_FILE)),
      );
      const config = parseLlmConfig(
        {
          endpoints: { standin: { baseUrl: url, concurrency: 4 } },
          roles: { party: { endpoint: "standin", model: DEMO_SIMULATORS[0], temperature: 0.7 } },
        },
        "demo recording",
      );
      const llm = createLlm({ db, config });
      for (const simulator of DEMO_SIMULATORS) {
        const summary = await generateFidelityPairs({
          db,
          llm,
          simulator,
          pairs: PAIRS_PER_SIMULATOR,
          seed: SEED,
          budget: TURN_BUDGET,
          emotion: true,
          concurrency: 1,
        });
        if (summary.pairsFailed.length > 0)
          throw new Error(`${simulator}: pairs not stored: ${summary.failed.map((f) => f.reason).join("; ")}`);
      }
      const all = await exportBundle(db);
      const conditions = all.conditions.filter((c) => c.axis === FIDELITY_AXIS);
      const ids = new Set(conditions.map((c) => c.id));
      // No timestamps: re-recording gives the same bytes.
      const runs = all.runs.filter((r) => ids.has(r.condition_id)).map(({ created_at: _dropped, ...run }) => run);
      return {
        format: BUNDLE_FORMAT,
        version: BUNDLE_VERSION,
        description: DESCRIPTION,
        scenarios: [],
        conditions,
        runs,
        matched_pairs: [],
        ab_pairs: all.ab_pairs,
        evaluations: [],
      };
    },
  );
}

export function demoAbText(bundle: Bundle): string {
  const { scenarios: _s, matched_pairs: _m, evaluations: _e, ...kept } = bundle;
  return `${JSON.stringify(kept, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const bundle = await recordFidelityPairs();
  writeFileSync(join(DEMO_DIR, AB_DEMO_FILE), demoAbText(bundle));
  console.log(
    `wrote ${AB_DEMO_FILE}: ${bundle.conditions.length} conditions, ${bundle.runs.length} runs, ${bundle.ab_pairs.length} pairs`,
  );
}
