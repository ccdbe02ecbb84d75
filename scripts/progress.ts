/**
 * A small progress bar on stderr. On a terminal it redraws one line; elsewhere (CI logs, a pipe,
 * a test capturing stderr) it prints plain lines: every step of a short job, and for a long one
 * only each tenth of the way and the last step, so a log of thousands of steps stays readable.
 * Failures are always printed. Optionally it shows an ETA (from the pace of the steps done in
 * this process, not those skipped as already done) and a status such as the cost so far.
 */

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

export interface ProgressOptions {
  stream?: NodeJS.WriteStream | { write(text: string): boolean; isTTY?: boolean; columns?: number };
  /** Show the estimated time left. */
  eta?: boolean;
  /** Extra text shown after the counts, read at every update (e.g. "$0.42 spent"). */
  status?: () => string;
  /** The clock, in ms (a test seam). */
  now?: () => number;
}

/** "45s", "3m05s", "2h07m". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

export function createProgress(label: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const tty = Boolean(stream.isTTY);
  let done = 0;
  let failed = 0;
  let finished = false;
  let skipped = 0;
  const now = options.now ?? (() => Date.now());
  const started = now();
  // Plain mode: a line per step up to 20 steps; beyond that, one per 10% and the last.
  const plainEvery = total <= 20 ? 1 : Math.ceil(total / 10);
  const plainDue = () => done % plainEvery === 0 || done === total;

  const eta = () => {
    const paced = done - skipped;
    if (!options.eta || paced <= 0 || done >= total) return "";
    return ` ETA ${formatDuration(((now() - started) / paced) * (total - done))}`;
  };
  const status = () => (options.status ? ` ${options.status()}` : "");
  const counts = () => `${done}/${total}${failed > 0 ? ` (${failed} failed)` : ""}${eta()}${status()}`;

  function draw(note = ""): void {
    const width = 24;
    const filled = total > 0 ? Math.round((done / total) * width) : width;
    const line = `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${counts()} ${note}`;
    const columns = stream.columns ?? 100;
    stream.write(`\r${line.slice(0, columns - 1).padEnd(columns - 1)}`);
  }

  if (tty) draw();
  return {
    tick(note) {
      done += 1;
      if (tty) draw(note);
      else if (plainDue()) stream.write(`${label} ${counts()}${note ? ` ${note}` : ""}\n`);
    },
    fail(note) {
      done += 1;
      failed += 1;
      if (tty) {
        stream.write(`\r${" ".repeat((stream.columns ?? 100) - 1)}\r${label}: ${note}\n`);
        draw();
      } else stream.write(`${label} ${counts()} failed: ${note}\n`);
    },
    skip(steps) {
      if (steps <= 0) return;
      const before = done;
      done += steps;
      skipped += steps;
      if (tty) draw("already done");
      else if (Math.floor(before / plainEvery) !== Math.floor(done / plainEvery) || done === total)
        stream.write(`${label} ${counts()} already done\n`);
    },
    done() {
      if (finished) return;
      finished = true;
      if (tty) stream.write("\n");
    },
  };
}
