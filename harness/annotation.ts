/** Fixtures for annotation tests: a seeded demo database, studies and accounts without password hashing cost. */
import { eq } from "drizzle-orm";
import * as schema from "../db/schema.ts";
import type { ConsensusLabel } from "../app/task-types/consensus-snippet/label.ts";
import type { SessionUser } from "../app/server/auth/session.server.ts";
import type { Db } from "../app/server/db.server.ts";
import { seedDemo } from "../demo/seed.ts";
import { playedScenarioOfRun, snippetContext } from "../app/server/annotation/task-view.server.ts";

export { seedDemo };

/** Inserts an account directly (no password): annotation services only need the row. */
export async function addAnnotator(
  db: Db,
  username: string,
  role: "admin" | "expert" | "crowd",
  qualified = true,
): Promise<number> {
  return (
    await db
      .insert(schema.annotators)
      .values({
        username,
        displayName: username,
        role,
        ...(role === "crowd"
          ? { channel: "link", externalId: username, qualifiedAt: qualified ? new Date().toISOString() : null }
          : {}),
      })
      .returning({ id: schema.annotators.id })
  )[0].id;
}

/** A valid consensus label for an item: every topic scored `score`, every party "unclear". */
export async function validConsensusLabel(db: Db, itemId: number, score = 3): Promise<ConsensusLabel> {
  const item = (await db.select().from(schema.studyItems).where(eq(schema.studyItems.id, itemId)).limit(1))[0]!;
  const { runId } = await snippetContext(db, item.snippetId!);
  const { body } = await playedScenarioOfRun(db, runId);
  return {
    kind: "consensus-snippet",
    topics: Object.fromEntries(
      body.topics.map((t) => [
        t.id,
        { score, carriedForward: false, positions: Object.fromEntries(body.parties.map((p) => [p.id, "unclear"])) },
      ]),
    ),
  };
}

/** A signed-in annotator as the services receive one: username `u<id>` unless given, no crowd identity. */
export function sessionUser(id: number, role: "expert" | "crowd" = "expert", username = `u${id}`): SessionUser {
  return {
    id,
    role,
    username,
    displayName: username,
    channel: null,
    externalId: null,
    qualifiedAt: null,
    crowdStudies: [],
  };
}
