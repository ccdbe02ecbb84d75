/** Everything the task page needs for one item, checked for access and ownership, blinded by task-view. */
import type { ConsensusLabel } from "../../domain/labels.ts";
import type { SessionUser } from "../auth/session.server.ts";
import type { Db } from "../db.server.ts";
import { studyForWorker } from "./access.server.ts";
import { assignmentFor } from "./assignment.server.ts";
import { forbidden } from "../http/errors.server.ts";
import { submittedCount } from "../models/assignment.server.ts";
import { itemCount } from "../models/study.server.ts";
import { latestOwnLabel, loadDraft } from "../models/label.server.ts";
import { abTaskView, consensusTaskView, loadItem, previousOwnLabel } from "./task-view.server.ts";

export function annotatorProgress(db: Db, studyId: number, annotatorId: number): { total: number; done: number } {
  return { total: itemCount(db, studyId), done: submittedCount(db, studyId, annotatorId) };
}

export function taskPage(db: Db, studyId: number, itemId: number, user: SessionUser) {
  const study = studyForWorker(db, studyId, user);
  const item = loadItem(db, studyId, itemId);
  const assignment = assignmentFor(db, itemId, user.id);
  if (!assignment) throw forbidden(`Item ${itemId} is not assigned to you`);
  const latest = latestOwnLabel(db, itemId, user.id);
  const draft = loadDraft(db, itemId, user.id);
  const common = {
    study: { id: study.id, name: study.name, type: study.type, guidelines: study.guidelines, open: study.status === "open" },
    itemId,
    progress: annotatorProgress(db, studyId, user.id),
    submitted: latest ? { revision: latest.revision, createdAt: latest.createdAt } : null,
    leaseExpiresAt: assignment.status === "leased" ? assignment.leaseExpiresAt : null,
  };
  if (item.kind === "consensus-snippet") {
    return {
      ...common,
      task: consensusTaskView(db, item),
      previousLabel: previousOwnLabel(db, item, user.id),
      initialLabel: (draft as ConsensusLabel | null) ?? (latest?.payload.kind === "consensus-snippet" ? latest.payload : null),
      initialChoice: null,
    };
  }
  const draftChoice = draft && typeof draft === "object" && "choice" in draft ? (draft as { choice: "A" | "B" }).choice : null;
  return {
    ...common,
    task: abTaskView(db, item),
    previousLabel: null,
    initialLabel: null,
    initialChoice: draftChoice ?? (latest?.payload.kind === "ab-reactiveness" ? latest.payload.choice : null),
  };
}
