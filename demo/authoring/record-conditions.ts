/**
 * How the demo's expanded conditions were made (demo data, not model output): `socrates probe`
 * over the four demo scenarios, every axis, with the writer answered by the offline stand-in
 * (app/server/llm/stand-in, canned replies, in this process). The template conditions (strategy, emotion,
 * culture) are exactly what the probe stores for any user; the three-party and history ones are
 * the stand-in's canned text, so they show the format and the pages, not a model's writing.
 *
 * Deterministic. Rewrites demo/demo-conditions.json:
 *   npx tsx demo/authoring/record-conditions.ts
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUNDLE_FORMAT, BUNDLE_VERSION, CONDITION_AXES } from "../../app/domain/bundle.ts";
import { exportBundle, importBundleFiles } from "../../app/server/bundle-store.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { createLlm } from "../../app/server/llm/client.server.ts";
import { scenarioIds } from "../../app/server/models/scenario.server.ts";
import { planProbe, probe } from "../../app/server/probing/probe.server.ts";
import { mockConfig } from "../../app/server/llm/stand-in/config.server.ts";
import { standInResponder } from "../../app/llm-roles/stand-in.ts";
import { startMockLlm } from "../../app/server/llm/stand-in/endpoint.server.ts";

const DEMO_DIR = join(import.meta.dirname, "..");
const OUT = join(DEMO_DIR, "demo-conditions.json");
/** The scenario files only: the conditions file is what this script writes, the A/B file is another script's. */
const SCENARIO_FILES = /^demo-(environmental|healthcare|intra-organizational|transactional)\.json$/;
const WRITER_MODEL = "stand-in-writer";

const DESCRIPTION =
  "Demo data for SoCRATES Studio: the 14 expanded conditions (strategy, three-party, history, emotion, culture) of each demo scenario, made by `socrates probe` (demo/authoring/record-conditions.ts). The strategy, emotion and culture conditions are the probe's fixed templates; the three-party and history conditions were recorded from the offline stand-in endpoint's canned replies (test/mock-llm), not from a model.";

const dir = mkdtempSync(join(tmpdir(), "socrates-demo-conditions-"));
const mock = await startMockLlm({ respond: standInResponder() });
try {
  const db = await openDatabase(join(dir, "record.db"));
  const files = readdirSync(DEMO_DIR)
    .filter((f) => SCENARIO_FILES.test(f))
    .sort();
  await importBundleFiles(
    db,
    files.map((f) => ({ file: f, text: readFileSync(join(DEMO_DIR, f), "utf8") })),
  );
  const llm = createLlm({ db, config: mockConfig(mock.url, { model: WRITER_MODEL }) });
  const summary = await probe({ db, llm, plan: await planProbe(db, await scenarioIds(db), [...CONDITION_AXES]) });
  if (summary.rejected.length > 0 || summary.failed.length > 0)
    throw new Error(`probe: ${JSON.stringify([...summary.rejected, ...summary.failed])}`);
  const conditions = (await exportBundle(db)).conditions.filter((c) => c.axis !== "general");
  writeFileSync(
    OUT,
    `${JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, description: DESCRIPTION, conditions }, null, 2)}\n`,
  );
  db.$client.close();
  console.log(`wrote ${conditions.length} conditions to ${OUT}`);
} finally {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
}
