/**
 * A debounced saver: the core of useAutosave, free of React so it is tested with fake timers.
 * Values are compared by their JSON, so re-rendering with an equal value saves nothing.
 */

export interface Timers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class DebouncedSaver<T> {
  private pending: { value: T; key: string } | null = null;
  private timer: unknown = null;
  private lastKey: string;

  /** `baseline` is the value already stored (e.g. the draft the page loaded with); it is never saved again. */
  constructor(
    private readonly save: (value: T) => void,
    private readonly delayMs: number,
    baseline: T,
    private readonly timers: Timers = realTimers,
  ) {
    this.lastKey = JSON.stringify(baseline) ?? "";
  }

  /** Queues `value`, restarting the delay; a value equal to the last saved or queued one is ignored. */
  schedule(value: T): void {
    const key = JSON.stringify(value) ?? "";
    if (key === (this.pending?.key ?? this.lastKey)) return;
    if (key === this.lastKey) {
      // Changed back to what is stored: nothing left to save.
      this.cancel();
      return;
    }
    this.pending = { value, key };
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => this.flush(), this.delayMs);
  }

  /** Saves the queued value now, if there is one. */
  flush(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.lastKey = pending.key;
    this.save(pending.value);
  }

  /** Drops the queued value (e.g. the label was just submitted, so the draft is stale). */
  cancel(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }

  get isPending(): boolean {
    return this.pending !== null;
  }
}
