/** What the Prolific panel shows and the reply to its settings form. */
import type { ProlificSettings } from "../../domain/study-config.ts";

export interface ProlificPanelData {
  settings: ProlificSettings | null;
  /** The study URL with Prolific's {{%…%}} placeholders. */
  studyUrl: string;
  /** The study's Prolific sessions: confirmed by an imported export, or still pending. */
  sessions: { confirmed: number; pending: number };
}

export type ProlificPanelResult =
  | { ok: true }
  | { ok: false; message: string; problems: { path: string; message: string }[] };
