/**
 * One seed through the curation pipeline: write the scenario (with one repair), replay it
 * unmediated, and record the candidate — rejected as invalid, rejected as resolved on replay r,
 * or accepted, when the scenario, its general condition and its replays are stored as runs in
 * the same transaction as the candidate row. A failed or interrupted call records nothing, so a
 * later run picks the seed up again and the LLM cache answers what was already asked.
 */
import { BUNDLE_FORMAT, BUNDLE_VERSION, type BundleInput } from "../../domain/bundle.ts";
import type { Llm } from "../../domain/llm/types.ts";
import { importBundleFiles } from "../bundle-store.server.ts";
import type { Db } from "../db.server.ts";
import { transact } from "../db-transaction.server.ts";
import { candidateForSeed, insertCandidate, type CandidateRow } from "../models/curation-candidate.server.ts";
import { replayUnmediated } from "./replay.server.ts";
import { writeScenario, type WriterSeed } from "./writer.server.ts";

export type SeedOutcome =
  | { kind: "recorded"; candidate: CandidateRow; existed: boolean }
  | { kind: "failed"; reason: string; aborted: boolean };

async function recorded(db: Db, seedId: string, existed: boolean): Promise<SeedOutcome> {
  const candidate = await candidateForSeed(db, seedId);
  if (!candidate) throw new Error(`curation: the candidate for seed "${seedId}" was not stored`);
  return { kind: "recorded", candidate, existed };
}

export async function curateSeed(
  db: Db,
  llm: Llm,
  seed: WriterSeed,
  replays: number,
  signal?: AbortSignal,
): Promise<SeedOutcome> {
  if (await candidateForSeed(db, seed.id)) return await recorded(db, seed.id, true);
  if (signal?.aborted) return { kind: "failed", reason: "interrupted", aborted: true };
  const base = { seedId: seed.id, domain: seed.domain };

  const written = await writeScenario(llm, seed);
  if (!written.ok) {
    if (!written.invalid) return { kind: "failed", reason: written.reason, aborted: Boolean(signal?.aborted) };
    await insertCandidate(db, {
      ...base,
      status: "rejected",
      rejection: "invalid",
      reason: written.reason,
      candidate: written.candidate,
      replays: [],
    });
    return await recorded(db, seed.id, false);
  }

  const { scenario } = written;
  const played = await replayUnmediated(llm, scenario, replays, signal);
  if (!played.ok) return { kind: "failed", reason: played.reason, aborted: played.aborted };
  if (played.resolvedOn !== null) {
    // The replays of a rejected scenario are not stored as runs: only their outcomes are kept.
    const records = played.records.map(({ replay, outcome }) => ({ replay, outcome }));
    await insertCandidate(db, {
      ...base,
      status: "rejected",
      rejection: "resolved",
      reason: `resolved on replay ${played.resolvedOn}`,
      candidate: scenario,
      replays: records,
    });
    return await recorded(db, seed.id, false);
  }

  const bundle: BundleInput = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    scenarios: [scenario],
    conditions: [played.condition],
    runs: played.runs,
  };
  try {
    await transact(db, async (db) => {
      await importBundleFiles(db, [{ file: `<curate ${seed.id}>`, text: JSON.stringify(bundle) }]);
      await insertCandidate(db, {
        ...base,
        status: "accepted",
        candidate: scenario,
        replays: played.records,
        scenarioId: scenario.id,
      });
    });
  } catch (err) {
    // E.g. a scenario of that id imported by hand with other content: report it, store nothing.
    return {
      kind: "failed",
      reason: `could not store the accepted scenario ${scenario.id}: ${(err as Error).message}`,
      aborted: false,
    };
  }
  return await recorded(db, seed.id, false);
}
