/**
 * The crowd-channel seam. A channel is one way paid crowd work reaches a study (a signed link,
 * an MTurk batch, MTurk ExternalQuestion HITs, Prolific). Each is one object carrying: how a
 * worker enters and which parameters that takes, how the worker is identified, what ends their
 * work and what they get back, its per-study settings, and its panel on the study dashboard. The
 * crowd routes and the dashboard dispatch through the registry (registry.server.ts); a channel is
 * a folder here (see registry.ts for its pure descriptor), registered with one line in each registry.
 */
import type { Db } from "../server/db.server.ts";
import type { StudyRow } from "../server/models/study.server.ts";
import type { CrowdChannelId, WorkerChannel } from "./registry.ts";

export type { CrowdChannelId };

/** What entering at /crowd/start led to. */
export type EntryOutcome =
  /** Identified: log the worker in for this study and send them to `next`. */
  | { kind: "session"; annotatorId: number; next: string }
  /** Refused on a page that tells the worker what to do, with its HTTP status. */
  | { kind: "refused"; status: number; message: string }
  /** A broken link: an error response. */
  | { kind: "invalid"; status: 400 | 403; message: string };

/** Where a channel's workers come in. */
export type ChannelEntry =
  /** Through /crowd/start: the parameters that mark the channel, and entering with them. */
  | {
      path: "/crowd/start";
      params: readonly string[];
      /** The parameter carrying the worker's id, when entry may start a session (checked for open work first). */
      workerParam: string | null;
      matches(params: URLSearchParams): boolean;
      /**
       * The entry page's GET (read-only, issue 29): a refusal it can tell at once (a bad link), or
       * null when the entrant may start — which happens only by a POST, through `enter`.
       */
      check(
        db: Db,
        study: StudyRow,
        params: URLSearchParams,
      ): Promise<Exclude<EntryOutcome, { kind: "session" }> | null>;
      /**
       * Creates what entering needs (a POST only); `created`: it wrote a new worker or session, which counts against
       * the entry limits.
       */
      enter(db: Db, study: StudyRow, params: URLSearchParams): Promise<EntryOutcome & { created?: boolean }>;
      /** Its ids are unsigned (anyone can type them): new entries are limited per network and study. */
      unsigned: boolean;
      /** What an entrant is asked to do when the study is closed or has nothing for them (e.g. return their place). */
      returnNote: string | null;
    }
  /** Through a route of its own (e.g. /mturk/task), or none at all (a results file): see `describe`. */
  | { path: string | null; describe: string };

/** What the worker is shown at the end of their work in a study. */
export type CompletionStep =
  | { kind: "task"; path: string }
  | { kind: "qualify"; path: string }
  /** The reading test's attempts are used up: no code; the worker should return the study. */
  | { kind: "not-qualified" }
  | { kind: "complete"; code: string; url: string; labels: number };

export interface ChannelCompletion {
  /** What ends a worker's work on this channel and what they get back, in words. */
  describe: string;
  /** The channel's own end-of-work step (a completion code); null: the usual end of work page. */
  finish: ((db: Db, studyId: number, annotatorId: number) => Promise<CompletionStep>) | null;
  /** What the end page shows without writing (its GET): the code or the lock-out, else null while work goes on. */
  endView:
    | ((
        db: Db,
        studyId: number,
        annotatorId: number,
      ) => Promise<Extract<CompletionStep, { kind: "complete" } | { kind: "not-qualified" }> | null>)
    | null;
  /** Where a worker whose reading-test attempts are used up goes; null: they stay on the test page. */
  lockedOutPath(studyId: number): string | null;
}

/** A channel's panel on a crowd study's dashboard (its component: registry.tsx) and the form post it answers. */
export interface ChannelDashboard {
  /** What the panel shows (the loader's part: read-only, JSON). */
  load(db: Db, study: Pick<StudyRow, "id" | "config">, origin: string): Promise<unknown>;
  /** The dashboard form's `intent` the panel posts. */
  intent: string;
  /** Answers that post: the panel's `result`, and the HTTP status (a missing study is thrown). */
  act(db: Db, studyId: number, form: FormData, requestUrl: string): Promise<{ result: unknown; status: number }>;
}

/** Per-study settings a channel needs before workers may start (validated when set). */
export interface ChannelSettings<T = unknown> {
  read(study: Pick<StudyRow, "config">): T | null;
  update(db: Db, studyId: number, input: Record<string, unknown>): Promise<T>;
}

export interface CrowdChannel {
  id: CrowdChannelId;
  title: string;
  entry: ChannelEntry;
  identity: {
    /** The namespace workers are stored under (annotators.channel, e.g. `mturk:<WorkerId>`). */
    workerChannel: WorkerChannel;
    /** How the worker id is vouched for. */
    verifiedBy: string;
  };
  completion: ChannelCompletion;
  /** Null when the channel needs nothing set per study. */
  settings: ChannelSettings | null;
  /** Its panel on a crowd study's dashboard; null: none. (Its workers count in the Channels table by namespace.) */
  dashboard: ChannelDashboard | null;
}

/** The usual end for channels without a completion code: work until nothing is left. */
export const NO_COMPLETION_CODE = { finish: null, endView: null, lockedOutPath: () => null } as const;
