/**
 * The progress line of a long command, on stderr: "simulate 12/160 runs · 3.1 runs/min · ETA 4 min
 * · $0.12 spent". On a terminal it redraws one line in place; elsewhere (CI logs, a pipe, a test
 * capturing stderr) it prints a plain line at most every few seconds and at the last step, so a log
 * of thousands of steps stays readable. Failures are always printed. The pace and the ETA come from
 * the steps done in this process, not those skipped as already done.
 */
import { paletteFor } from "./colour.ts";

export interface Progress {
  /** One step done; `note` is shown beside the bar or printed on the plain line. */
  tick(note?: string): void;
  /** One step failed; the reason is always printed on its own line. */
  fail(note: string): void;
  /** Steps already done before this process started (counted, not timed: the ETA ignores them). */
  skip(steps: number): void;
  /** Finishes the bar (a final newline on a terminal). */
  done(): void;
}

type ProgressStream = { write(text: string): boolean; isTTY?: boolean; columns?: number };

export interface ProgressOptions {
  stream?: NodeJS.WriteStream | ProgressStream;
  /** What a step is, plural ("runs"): shown after the counts and in the pace. */
  unit?: string;
  /** Show the estimated time left. */
  eta?: boolean;
  /** Dollars spent so far, read at every update: "$0.12 spent". */
  cost?: () => number;
  /** Extra text shown after the counts, read at every update. */
  status?: () => string;
  /** The least time between two plain (not a terminal) lines, in ms; default SOCRATES_PROGRESS_SECONDS or 5 s. */
  plainEveryMs?: number;
  /** The clock, in ms (a test seam). */
  now?: () => number;
  /** The environment, for the colour settings (a test seam). */
  env?: Record<string, string | undefined>;
}

/** "45 s", "4 min", "2 h 07 min": as coarse as an estimate deserves. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, "0")} min`;
}

/** SOCRATES_PROGRESS_SECONDS: how often a log (not a terminal) gets a progress line; 0 for every step. */
function plainInterval(env: Record<string, string | undefined>): number {
  const seconds = Number(env.SOCRATES_PROGRESS_SECONDS ?? "5");
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 5_000;
}

function formatRate(perMinute: number): string {
  return perMinute < 10 ? perMinute.toFixed(1) : String(Math.round(perMinute));
}

export function createProgress(label: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const tty = Boolean(stream.isTTY);
  const paint = paletteFor(stream, options.env);
  const unit = options.unit ?? "steps";
  let done = 0;
  let failed = 0;
  let finished = false;
  let skipped = 0;
  const now = options.now ?? (() => Date.now());
  const started = now();
  const plainEveryMs = options.plainEveryMs ?? plainInterval(options.env ?? process.env);
  let lastPlain = started;

  const pace = (): string[] => {
    const paced = done - skipped;
    const elapsed = now() - started;
    if (paced <= 0 || elapsed <= 0) return [];
    const parts = [`${formatRate(paced / (elapsed / 60_000))} ${unit}/min`];
    if (options.eta && done < total) parts.push(`ETA ${formatDuration((elapsed / paced) * (total - done))}`);
    return parts;
  };
  const counts = () =>
    [
      `${done}/${total} ${unit}`,
      ...(failed > 0 ? [`${failed} failed`] : []),
      ...pace(),
      ...(options.cost ? [`$${options.cost().toFixed(2)} spent`] : []),
      ...(options.status ? [options.status()] : []),
    ].join(" · ");
  const plain = (text: string) => {
    lastPlain = now();
    stream.write(`${paint.progress(label)} ${text}\n`);
  };

  function draw(note = ""): void {
    const width = 24;
    const filled = total > 0 ? Math.round((done / total) * width) : width;
    const line = `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${counts()} ${note}`;
    const columns = stream.columns ?? 100;
    const fitted = line.slice(0, columns - 1).padEnd(columns - 1);
    // Colour only the label, so the escape codes never count towards the width.
    stream.write(`\r${paint.progress(fitted.slice(0, label.length))}${fitted.slice(label.length)}`);
  }
  /** A plain line when enough time has passed since the last one, or at the last step. */
  function plainDue(note?: string): void {
    if (done >= total || now() - lastPlain >= plainEveryMs) plain(`${counts()}${note ? ` ${note}` : ""}`);
  }

  if (tty) draw();
  return {
    tick(note) {
      done += 1;
      if (tty) draw(note);
      else plainDue(note);
    },
    fail(note) {
      done += 1;
      failed += 1;
      if (tty) {
        stream.write(`\r${" ".repeat((stream.columns ?? 100) - 1)}\r${paint.error(`${label}: ${note}`)}\n`);
        draw();
      } else plain(`${counts()} ${paint.error(`failed: ${note}`)}`);
    },
    skip(steps) {
      if (steps <= 0) return;
      done += steps;
      skipped += steps;
      if (tty) draw("already done");
      else plainDue("already done");
    },
    done() {
      if (finished) return;
      finished = true;
      if (tty) stream.write("\n");
    },
  };
}
