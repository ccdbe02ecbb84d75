/**
 * `socrates prolific import`: Prolific's submissions export confirms sessions. A Prolific
 * participant's labels are stored pending, because anyone can open the study URL with a made-up
 * PROLIFIC_PID; only Prolific's own list proves the session was a real participant's. A row
 * confirms a stored session when its submission id (the SESSION_ID), participant id and study are
 * the stored ones, its status is APPROVED or AWAITING REVIEW, and its completion code, when it
 * has one, is the study's. Then each pending label of the participant in the study is confirmed:
 * counted while its item has room under k, else surplus. All-or-nothing and idempotent.
 */
import {
  isConfirmingStatus,
  parseProlificExport,
  formatExportProblem,
  type ExportProblem,
  type ProlificExportRow,
} from "../../domain/crowd/prolific-export.ts";
import type { Db } from "../../server/db.server.ts";
import { ServiceError } from "../../server/http/errors.server.ts";
import { confirmLabel } from "../../server/annotation/label-status.server.ts";
import {
  confirmCrowdAssignment,
  sessionForConfirmation,
  setCrowdAssignmentStatus,
  type CrowdAssignmentStatus,
  type SessionForConfirmation,
} from "../../server/models/crowd-assignment.server.ts";
import { pendingLabelsOf } from "../../server/models/label.server.ts";
import { studyOrNotFound } from "../../server/crowd/crowd-study.server.ts";
import { prolificSettingsOf } from "./sessions.server.ts";
import { transact } from "../../server/db-transaction.server.ts";

const CHANNEL = "prolific";

/** What Prolific's review outcome means for the stored session's status; other statuses leave it. */
const STATUS_FROM_PROLIFIC: Record<string, CrowdAssignmentStatus> = { APPROVED: "approved", REJECTED: "rejected" };

export class ProlificImportError extends Error {
  constructor(
    readonly file: string,
    readonly problems: ExportProblem[],
  ) {
    super(
      `import refused, nothing was written (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n${problems.map((p) => formatExportProblem(file, p)).join("\n")}`,
    );
    this.name = "ProlificImportError";
  }
}

export interface ProlificImportOptions {
  text: string;
  /** Named in every problem. */
  fileName: string;
  dryRun?: boolean;
  /** Prolific's STUDY_ID of the export, when the file has no study column and the sessions disagree. */
  prolificStudy?: string;
  now?: Date;
}

/** A row that names a stored session of this study whose participant or Prolific study differ. */
export interface MismatchedRow {
  line: number;
  submissionId: string;
  reason: string;
}

export interface ProlificImportSummary {
  dryRun: boolean;
  rows: number;
  /** Sessions confirmed by this import. */
  confirmedSessions: number;
  /** Pending labels this import confirmed, counted within k or stored as surplus. */
  labelsCounted: number;
  labelsSurplus: number;
  /** Rows for sessions confirmed before, with nothing left to change. */
  unchanged: number;
  /** Listed sessions that stay pending, by Prolific status (RETURNED, TIMED-OUT, REJECTED, …). */
  stayPending: Record<string, number>;
  /** APPROVED or AWAITING REVIEW, but with another completion code: they stay pending. */
  codeMismatch: number;
  /** Sessions confirmed earlier that Prolific now lists as rejected (their labels keep their status). */
  rejectedAfterConfirming: number;
  /** Rows whose submission id is no stored session (never reached the app, or another study's). */
  unknownSessions: number;
  mismatched: MismatchedRow[];
  /** Stored sessions whose status changed to Prolific's review outcome (approved, rejected). */
  statusUpdated: number;
}

type Match =
  | { kind: "unknown" }
  | { kind: "mismatch"; reason: string }
  | { kind: "session"; session: SessionForConfirmation };

async function matchRow(db: Db, studyId: number, row: ProlificExportRow): Promise<Match> {
  const session = await sessionForConfirmation(db, CHANNEL, row.submissionId);
  if (!session) return { kind: "unknown" };
  if (session.studyId !== studyId)
    return { kind: "mismatch", reason: `the session was entered for study ${session.studyId}, not ${studyId}` };
  if (session.participantId !== row.participantId) {
    return {
      kind: "mismatch",
      reason: `the session was entered with participant id ${session.participantId}, the export lists ${row.participantId}`,
    };
  }
  return { kind: "session", session };
}

/**
 * The Prolific STUDY_ID the export is of: its study column per row, else the option, else the one
 * STUDY_ID its matching sessions were entered with (several: refused, name it with the option).
 */
function exportStudyOf(
  file: string,
  matches: { row: ProlificExportRow; session: SessionForConfirmation }[],
  option: string | undefined,
): (row: ProlificExportRow) => string | null {
  if (option) return (row) => row.studyId ?? option;
  const stored = [...new Set(matches.filter((m) => m.row.studyId === null).map((m) => m.session.externalGroupId))];
  if (stored.length > 1) {
    throw new ProlificImportError(file, [
      {
        line: 1,
        column: "Study id",
        message: `the listed sessions were entered under ${stored.length} Prolific study ids (${stored.join(", ")}); name the export's study with --prolific-study`,
      },
    ]);
  }
  return (row) => row.studyId ?? stored[0] ?? null;
}

function emptySummary(dryRun: boolean, rows: number): ProlificImportSummary {
  return {
    dryRun,
    rows,
    confirmedSessions: 0,
    labelsCounted: 0,
    labelsSurplus: 0,
    unchanged: 0,
    stayPending: {},
    codeMismatch: 0,
    rejectedAfterConfirming: 0,
    unknownSessions: 0,
    mismatched: [],
    statusUpdated: 0,
  };
}

/** Confirms the participant's pending labels in the study, first stored first counted. Returns how many changed. */
async function confirmPendingLabels(
  db: Db,
  studyId: number,
  labelsPerItem: number,
  annotatorId: number,
  summary: ProlificImportSummary,
): Promise<number> {
  const pending = await pendingLabelsOf(db, studyId, annotatorId);
  for (const { labelId, itemId } of pending) {
    if ((await confirmLabel(db, labelId, itemId, labelsPerItem)) === "counted") summary.labelsCounted++;
    else summary.labelsSurplus++;
  }
  return pending.length;
}

interface StudyTerms {
  studyId: number;
  labelsPerItem: number;
  completionCode: string;
  at: string;
}

/** Applies one matching row: Prolific's review outcome, then the confirmation when the row vouches for the session. */
async function applyRow(
  db: Db,
  terms: StudyTerms,
  row: ProlificExportRow,
  session: SessionForConfirmation,
  summary: ProlificImportSummary,
): Promise<void> {
  let changed = false;
  const status = STATUS_FROM_PROLIFIC[row.status];
  if (status && status !== session.status) {
    await setCrowdAssignmentStatus(db, session.id, status);
    summary.statusUpdated++;
    changed = true;
  }
  if (!isConfirmingStatus(row.status)) {
    if (session.confirmedAt && row.status === "REJECTED") summary.rejectedAfterConfirming++;
    else if (!session.confirmedAt) summary.stayPending[row.status] = (summary.stayPending[row.status] ?? 0) + 1;
    else if (!changed) summary.unchanged++;
    return;
  }
  if (row.completionCode !== null && row.completionCode.toUpperCase() !== terms.completionCode.toUpperCase()) {
    summary.codeMismatch++;
    return;
  }
  if (!session.confirmedAt) {
    await confirmCrowdAssignment(db, session.id, terms.at);
    summary.confirmedSessions++;
    changed = true;
  }
  // Labels submitted after an earlier confirmation are confirmed too.
  if ((await confirmPendingLabels(db, terms.studyId, terms.labelsPerItem, session.annotatorId, summary)) > 0)
    changed = true;
  if (!changed) summary.unchanged++;
}

/**
 * Imports a Prolific export into a study. Refuses (ProlificImportError) a malformed file, naming row and column;
 * nothing is written then.
 */
export async function importProlificExport(
  db: Db,
  studyId: number,
  options: ProlificImportOptions,
): Promise<ProlificImportSummary> {
  const study = await studyOrNotFound(db, studyId);
  const settings = prolificSettingsOf(study);
  if (!settings)
    throw new ServiceError(
      409,
      `Study ${studyId} has no Prolific settings; save its completion code on the dashboard first`,
    );
  const parsed = parseProlificExport(options.text);
  if (parsed.problems.length) throw new ProlificImportError(options.fileName, parsed.problems);
  const terms: StudyTerms = {
    studyId,
    labelsPerItem: study.labelsPerItem,
    completionCode: settings.completionCode,
    at: (options.now ?? new Date()).toISOString(),
  };
  return await transact(
    db,
    async (db): Promise<ProlificImportSummary> => {
      const summary = emptySummary(Boolean(options.dryRun), parsed.rows.length);
      const matched: { row: ProlificExportRow; session: SessionForConfirmation }[] = [];
      for (const row of parsed.rows) {
        const match = await matchRow(db, studyId, row);
        if (match.kind === "unknown") summary.unknownSessions++;
        else if (match.kind === "mismatch")
          summary.mismatched.push({ line: row.line, submissionId: row.submissionId, reason: match.reason });
        else matched.push({ row, session: match.session });
      }
      const exportStudy = exportStudyOf(options.fileName, matched, options.prolificStudy);
      for (const { row, session } of matched) {
        const expected = exportStudy(row);
        if (expected !== null && session.externalGroupId !== expected) {
          summary.mismatched.push({
            line: row.line,
            submissionId: row.submissionId,
            reason: `the session was entered with STUDY_ID ${session.externalGroupId}, the export is of ${expected}`,
          });
          continue;
        }
        await applyRow(db, terms, row, session, summary);
      }
      summary.mismatched.sort((a, b) => a.line - b.line);
      return summary;
    },
    { dryRun: options.dryRun },
  );
}
