/**
 * One annotator in its own process, for the allocation concurrency test: takes tasks until none
 * is left, submitting a valid label for each, and prints the item ids it got as JSON.
 * Usage: tsx annotator-worker.ts <db path> <study id> <annotator id>
 */
import { openDatabase } from "../../app/server/db.server.ts";
import { nextTask } from "../../app/server/annotation/assignment.server.ts";
import { submitLabel } from "../../app/server/annotation/submit.server.ts";
import { validConsensusLabel } from "../../harness/annotation.ts";

const [dbPath, studyArg, annotatorArg] = process.argv.slice(2);
const db = await openDatabase(dbPath);
const studyId = Number(studyArg);
const annotatorId = Number(annotatorArg);
const got: number[] = [];
// Everyone starts together: say ready, then wait for the parent's "go" on stdin.
process.stdout.write("ready\n");
await new Promise<void>((go) => process.stdin.once("data", () => go()));
for (;;) {
  const lease = await nextTask(db, studyId, annotatorId);
  if (!lease) break;
  got.push(lease.itemId);
  await submitLabel(db, {
    studyId,
    itemId: lease.itemId,
    annotatorId,
    payload: await validConsensusLabel(db, lease.itemId),
    clientToken: `worker-${annotatorId}-item-${lease.itemId}`,
    secondsOnTask: 1,
  });
}
db.$client.close();
process.stdout.write(JSON.stringify(got));
process.exit(0);
