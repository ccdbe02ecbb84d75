/**
 * What the task page's submit asks of the services, in process and without HTTP: the item route's
 * action for a browser's submit (app/routes/annotate.$studyId.items.$itemId.tsx) — the label
 * (saveTaskWork), the next step (takeNextStep) and the next item's page (nextItemPage) in one
 * transaction on the study's lock. bench:annotation-http prints it between bench:annotation's
 * allocate + submit and the server's figures, so the gap between them shows what is the services'
 * and what is the HTTP stack's (Remix, node's HTTP, the session).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nextItemPage } from "../app/server/annotation/next-page.server.ts";
import { saveTaskWork } from "../app/server/annotation/tasks.server.ts";
import { takeNextStep } from "../app/server/crowd/next-step.server.ts";
import { openDatabase } from "../app/server/db.server.ts";
import { closeDatabase, studyLock, transact } from "../app/server/db-transaction.server.ts";
import { sessionUser } from "../harness/annotation.ts";
import { addExperts, createBenchStudy, importSyntheticRuns, labelMaker } from "./study-fixture.ts";

export interface RouteWorkFigures {
  submits: number;
  /** Wall time of the services per submit (nothing else runs), ms. */
  msPerSubmit: number;
}

const ORIGIN = "http://127.0.0.1";

/** The services' part of a submit, timed over a fresh study of `trajectories` labelled to k by 30 experts in turn. */
export async function measureRouteWork(trajectories: number): Promise<RouteWorkFigures> {
  const dir = mkdtempSync(join(tmpdir(), "socrates-bench-route-work-"));
  const db = await openDatabase(join(dir, "bench.db"));
  try {
    await importSyntheticRuns(db, trajectories);
    const studyId = await createBenchStudy(db, trajectories);
    const users = (await addExperts(db)).map((id) => sessionUser(id));
    const label = await labelMaker(db, studyId);
    const locked = <T>(work: Parameters<typeof transact<T>>[1]) => transact(db, work, { lock: studyLock(studyId) });
    const page = (tx: Parameters<typeof saveTaskWork>[0], user: (typeof users)[number], path: string) =>
      nextItemPage(tx, studyId, user, path, `${ORIGIN}/annotate/${studyId}`);
    // Each expert's first item, leased and shown as the "next" page's POST and the item's page do (not timed).
    const paths = new Map<number, string>();
    for (const user of users)
      paths.set(
        user.id,
        await locked(async (tx) => {
          const path = await takeNextStep(tx, studyId, user);
          await page(tx, user, path);
          return path;
        }),
      );
    let submits = 0;
    let ms = 0;
    for (let active = users; active.length > 0; ) {
      active = active.filter((user) => /\/items\/\d+$/.test(paths.get(user.id)!));
      for (const user of active) {
        const itemId = Number(paths.get(user.id)!.split("/").pop());
        const post = {
          intent: "submit",
          payload: label(),
          clientToken: `route-${user.id}-${itemId}`,
          secondsOnTask: 30,
          comment: "",
        };
        const t = performance.now();
        const next = await locked(async (tx) => {
          await saveTaskWork(tx, studyId, itemId, user, post);
          const path = await takeNextStep(tx, studyId, user);
          await page(tx, user, path);
          return path;
        });
        ms += performance.now() - t;
        submits++;
        paths.set(user.id, next);
      }
    }
    return { submits, msPerSubmit: ms / submits };
  } finally {
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}
