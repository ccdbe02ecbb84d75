/**
 * The database behind the HTTP load runs (bench:load and the import-under-load test): a synthetic
 * bundle, one expert consensus study with k = 3, and password accounts made through the account
 * service (the same path as the admin page). Also the end-of-run check that every label the
 * server acknowledged is stored and no item holds more than k counted labels.
 */
import { and, count, eq, inArray } from "drizzle-orm";
import * as schema from "../db/schema.ts";
import type { ConsensusLabel } from "../app/task-types/consensus-snippet/label.ts";
import { createAccount } from "../app/server/annotation/accounts.server.ts";
import { createConsensusStudy } from "../app/server/annotation/studies.server.ts";
import { playedScenarioOfRun, snippetContext } from "../app/server/annotation/task-view.server.ts";
import { importBundleFiles } from "../app/server/bundle-store.server.ts";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
import { openDatabase } from "../app/server/db.server.ts";
import { syntheticBundle } from "./synthetic-bundle.ts";

export const LOAD_K = 3;

export interface Account {
  username: string;
  password: string;
}

export interface LoadFixture {
  studyId: number;
  items: number;
  accounts: Account[];
  /** A valid label for every item of the study (synthetic scenarios share topics and parties). */
  label: ConsensusLabel;
}

/**
 * Enough synthetic runs for the study's trajectories (135 per scenario); with `conditions`, only
 * that many conditions' runs (a small study that a PostgreSQL test imports in a second, not 20).
 */
function loadBundle(options: { trajectories: number; conditions?: number }) {
  const bundle = syntheticBundle(Math.ceil(options.trajectories / 135));
  if (options.conditions === undefined) return bundle;
  const conditions = (bundle.conditions ?? []).slice(0, options.conditions);
  const kept = new Set(conditions.map((c) => c.id));
  const runs = (bundle.runs ?? []).filter((r) => kept.has(r.condition_id));
  const runIds = new Set(runs.map((r) => r.id));
  return {
    ...bundle,
    conditions,
    runs,
    matched_pairs: (bundle.matched_pairs ?? []).filter((p) => kept.has(p.condition_id)),
    evaluations: (bundle.evaluations ?? []).filter((e) => runIds.has(e.run_id)),
  };
}

/** Fills a fresh database file at `dbPath` and closes it, ready for the server to open. */
export async function prepareLoadDatabase(
  dbPath: string,
  options: { annotators: number; trajectories: number; conditions?: number },
): Promise<LoadFixture> {
  const db = await openDatabase(dbPath);
  try {
    await importBundleFiles(db, [{ file: "synthetic", text: JSON.stringify(loadBundle(options)) }]);
    const studyId = await createConsensusStudy(db, {
      name: "load",
      pool: "expert",
      trajectories: options.trajectories,
      labelsPerItem: LOAD_K,
      config: { seed: 1 },
    });
    const items = await db
      .select({ id: schema.studyItems.id, snippetId: schema.studyItems.snippetId })
      .from(schema.studyItems)
      .where(eq(schema.studyItems.studyId, studyId));
    const accounts = Array.from({ length: options.annotators }, (_, i) => ({
      username: `load-expert-${i}`,
      password: `load-${i}-Kx7q!pass-word`,
    }));
    for (const a of accounts)
      await createAccount(db, { username: a.username, displayName: a.username, role: "expert", password: a.password });
    const { body } = await playedScenarioOfRun(db, (await snippetContext(db, items[0].snippetId!)).runId);
    const label: ConsensusLabel = {
      kind: "consensus-snippet",
      topics: Object.fromEntries(
        body.topics.map((t) => [
          t.id,
          {
            score: 3,
            carriedForward: false,
            positions: Object.fromEntries(body.parties.map((p) => [p.id, "unclear"])),
          },
        ]),
      ),
    };
    return { studyId, items: items.length, accounts, label };
  } finally {
    await closeDatabase(db);
  }
}

export interface StoredCheck {
  acknowledged: number;
  missing: string[];
  /** Items holding more counted labels than k (must be none). */
  overK: number;
}

/** Every acknowledged client token has a stored revision; no item is past k counted labels. */
export async function checkStored(dbPath: string, studyId: number, acknowledgedTokens: string[]): Promise<StoredCheck> {
  const db = await openDatabase(dbPath);
  try {
    const found = new Set<string>();
    for (let i = 0; i < acknowledgedTokens.length; i += 500) {
      const chunk = acknowledgedTokens.slice(i, i + 500);
      const rows = await db
        .select({ token: schema.labelRevisions.clientToken })
        .from(schema.labelRevisions)
        .where(inArray(schema.labelRevisions.clientToken, chunk));
      for (const r of rows) if (r.token) found.add(r.token);
    }
    const perItem = await db
      .select({ itemId: schema.labels.studyItemId, n: count() })
      .from(schema.labels)
      .innerJoin(schema.studyItems, eq(schema.studyItems.id, schema.labels.studyItemId))
      .where(and(eq(schema.studyItems.studyId, studyId), eq(schema.labels.status, "counted")))
      .groupBy(schema.labels.studyItemId);
    return {
      acknowledged: acknowledgedTokens.length,
      missing: acknowledgedTokens.filter((t) => !found.has(t)),
      overK: perItem.filter((r) => r.n > LOAD_K).length,
    };
  } finally {
    await closeDatabase(db);
  }
}
