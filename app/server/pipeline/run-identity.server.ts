/**
 * Finds stored runs by identity (app/domain/simulation/run-identity.ts) for every planner: a
 * planned run is stored when a run with its settings hash is, whatever that run's id (runs stored
 * before identities existed keep their ids); otherwise it gets the id a new run of those
 * settings is stored under.
 */
import {
  identifiedRunId,
  identityHashes,
  settingsHash,
  withoutSampling,
  type RunSettings,
} from "../../domain/simulation/run-identity.ts";
import type { Db } from "../db.server.ts";
import { runIdsBySettingsHash, runIdsBySettingsKey, storedRunIds } from "../models/run.server.ts";

export interface IdentifiedRun {
  runId: string;
  stored: boolean;
}

/**
 * Planned runs with their sampling (a planner holding the LLM configuration): each one's stored
 * run, else its new id. A new id already taken by a run of other settings is refused.
 */
export async function identifyRuns(db: Db, planned: readonly RunSettings[]): Promise<IdentifiedRun[]> {
  const hashes = planned.map(identityHashes);
  const found = await runIdsBySettingsHash(
    db,
    hashes.flatMap((h) => [h.hash, h.legacy]),
  );
  const out = planned.map((settings, i): IdentifiedRun => {
    const stored = found.get(hashes[i].hash) ?? found.get(hashes[i].legacy);
    return stored
      ? { runId: stored, stored: true }
      : { runId: identifiedRunId(settings, hashes[i].hash), stored: false };
  });
  const taken = await storedRunIds(
    db,
    out.filter((r) => !r.stored).map((r) => r.runId),
  );
  for (const r of out) {
    if (!r.stored && taken.has(r.runId)) {
      throw new Error(
        `run id "${r.runId}" is already stored for other settings (its settings hash differs); delete that run or import it under another id to simulate these settings`,
      );
    }
  }
  return out;
}

/**
 * Planned runs without sampling (a reader with no LLM configuration: reports, the Benchmark
 * page): each one's stored run matching every other setting, or null.
 */
export async function findRunsBySettings(db: Db, planned: readonly RunSettings[]): Promise<(string | null)[]> {
  const keys = planned.map((s) => settingsHash(withoutSampling(s)));
  const found = await runIdsBySettingsKey(db, keys);
  return keys.map((k) => found.get(k) ?? null);
}
