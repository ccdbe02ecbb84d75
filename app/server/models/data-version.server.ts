/**
 * The high-water mark of the data a study's dashboard reads (data_versions, kept by the triggers
 * of migration 0012): the versions of the study's own scope and the `global` one, and for an
 * expert study also every crowd consensus study's (its alignment table adds their labels).
 * Versions only grow and a scope is never removed, so the mark changes on every relevant write,
 * by any process.
 */
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { CONSENSUS_SNIPPET } from "../../task-types/consensus-snippet/label.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";

import { readSnapshot } from "../db-transaction.server.ts";
const { dataVersions, studies } = schema;

export const GLOBAL_SCOPE = "global";
export const studyScope = (studyId: number) => `study:${studyId}`;

const p = sql.placeholder;

// Read on every dashboard request: prepared once per connection.
const versions = preparedOnce((db) => {
  const crowdConsensusScopes = db
    .select({ scope: sql`'study:' || ${studies.id}` })
    .from(studies)
    .where(and(eq(studies.pool, "crowd"), eq(studies.type, CONSENSUS_SNIPPET)));
  const isExpert = sql`(select ${studies.pool} from ${studies} where ${studies.id} = ${p("studyId")}) = 'expert'`;
  return db
    .select({ scope: dataVersions.scope, version: dataVersions.version })
    .from(dataVersions)
    .where(
      or(
        eq(dataVersions.scope, GLOBAL_SCOPE),
        eq(dataVersions.scope, p("own")),
        and(isExpert, inArray(dataVersions.scope, crowdConsensusScopes)),
      ),
    )
    .orderBy(asc(dataVersions.scope))
    .prepare();
});

/** The study dashboard's mark, e.g. "global=12,study:3=40"; equal marks mean equal dashboard inputs. */
export async function dashboardMark(db: Db, studyId: number): Promise<string> {
  return (await versions(db).execute({ studyId, own: studyScope(studyId) }))
    .map((r) => `${r.scope}=${r.version}`)
    .join(",");
}

const leaseVersion = preparedOnce((db) =>
  db
    .select({ version: dataVersions.version })
    .from(dataVersions)
    .where(eq(dataVersions.scope, p("scope")))
    .prepare(),
);

/**
 * The study's lease mark: moved by every write to its assignments that could change who holds an item or when a lease
 * ends (migration 0026), which the dashboard mark leaves out on purpose (allocation writes them on every request).
 */
export async function leaseMark(db: Db, studyId: number): Promise<number> {
  return (await leaseVersion(db).execute({ scope: `leases:${studyId}` }))[0]?.version ?? 0;
}

/**
 * Runs `read` in one read transaction (BEGIN DEFERRED): in WAL mode everything it reads, the mark
 * first, comes from one snapshot, so a value computed inside always matches the mark read inside.
 */
export function inReadSnapshot<T>(db: Db, read: (db: Db) => Promise<T>): Promise<T> {
  return readSnapshot(db, read);
}
