/**
 * Routing over the replicas of one endpoint: each replica has its own concurrency limit and a
 * weight, a call goes to the least-loaded replica in rotation (in-flight ÷ weight), and a replica
 * that keeps failing is taken out of rotation until a probe after an exponential, capped back-off
 * brings it back. Pure apart from the clock and the probe, which the caller passes in.
 */

export interface ReplicaSpec {
  concurrency: number;
  weight: number;
}

export interface HealthPolicy {
  /** Consecutive failures that take a replica out (Infinity: never, as for a lone server). */
  failures: number;
  backoffMs: number;
  maxBackoffMs: number;
}

export interface PoolOptions {
  now?: () => number;
  /** Asks a replica whether it is back (a health check); without one, it returns when its back-off ends. */
  probe?: (replica: number) => Promise<boolean>;
}

interface ReplicaState {
  inFlight: number;
  /** Consecutive failures since the last success. */
  failures: number;
  /** Out of rotation until then (0: in rotation). */
  outUntil: number;
  /** Times taken out in a row: the back-off doubles with each. */
  ejections: number;
  probing: boolean;
  /** A 429's Retry-After: not before then. */
  busyUntil: number;
  lastError?: string;
}

/** What `llm check` and error messages say about a replica. */
export interface ReplicaStatus {
  inRotation: boolean;
  inFlight: number;
  lastError?: string;
}

interface Waiter {
  avoid: ReadonlySet<number>;
  resolve: (replica: number) => void;
}

export class ReplicaPool {
  private readonly states: ReplicaState[];
  private readonly waiting: Waiter[] = [];
  private readonly now: () => number;
  /** Smooth weighted round robin among equally loaded replicas. */
  private readonly credit: number[];

  constructor(
    private readonly specs: readonly ReplicaSpec[],
    private readonly policy: HealthPolicy,
    private readonly options: PoolOptions = {},
  ) {
    if (specs.length === 0) throw new Error("a replica pool needs at least one replica");
    this.states = specs.map(() => ({
      inFlight: 0,
      failures: 0,
      outUntil: 0,
      ejections: 0,
      probing: false,
      busyUntil: 0,
    }));
    this.now = options.now ?? Date.now;
    this.credit = specs.map(() => 0);
  }

  /**
   * Takes a slot on the best replica, waiting for one to free up. Replicas in `avoid` (tried by
   * this call already) are passed over while another in rotation remains; when none is in
   * rotation, the one available soonest is used anyway, so a call never waits on the back-off.
   */
  acquire(avoid: ReadonlySet<number> = new Set()): Promise<number> {
    const picked = this.pick(avoid);
    if (picked !== undefined) return Promise.resolve(this.take(picked));
    return new Promise((resolve) => this.waiting.push({ avoid, resolve }));
  }

  release(replica: number): void {
    this.states[replica].inFlight--;
    this.drain();
  }

  succeeded(replica: number): void {
    const s = this.states[replica];
    Object.assign(s, { failures: 0, ejections: 0, outUntil: 0, lastError: undefined });
  }

  /** A retryable failure; `retryAfterMs` (a 429's header) keeps only this replica aside for that long. */
  failed(replica: number, error: string, retryAfterMs?: number): void {
    const s = this.states[replica];
    const now = this.now();
    s.failures++;
    s.lastError = error;
    if (retryAfterMs !== undefined) s.busyUntil = Math.max(s.busyUntil, now + retryAfterMs);
    if (s.failures >= this.policy.failures && s.outUntil <= now) this.takeOut(s, now);
    this.drain();
  }

  /** Whether a replica not in `avoid` is in rotation, i.e. worth trying at once rather than after a wait. */
  hasOther(avoid: ReadonlySet<number>): boolean {
    const now = this.now();
    return this.states.some((s, i) => !avoid.has(i) && this.inRotation(s, now));
  }

  status(replica: number): ReplicaStatus {
    const s = this.states[replica];
    return { inRotation: this.inRotation(s, this.now()), inFlight: s.inFlight, lastError: s.lastError };
  }

  private inRotation(s: ReplicaState, now: number): boolean {
    return !s.probing && s.outUntil <= now && s.busyUntil <= now;
  }

  private takeOut(s: ReplicaState, now: number): void {
    s.outUntil = now + Math.min(this.policy.maxBackoffMs, this.policy.backoffMs * 2 ** s.ejections);
    s.ejections++;
  }

  private take(replica: number): number {
    this.states[replica].inFlight++;
    return replica;
  }

  /**
   * The replica with a free slot and the least load per weight among the candidates, if any; a tie
   * (as when calls come one at a time) goes round by weight (smooth weighted round robin).
   */
  private pick(avoid: ReadonlySet<number>): number | undefined {
    const now = this.now();
    this.startProbes(now);
    const indices = this.states.map((_, i) => i);
    const rotating = indices.filter((i) => this.inRotation(this.states[i], now));
    const untried = rotating.filter((i) => !avoid.has(i));
    const candidates = untried.length > 0 ? untried : rotating.length > 0 ? rotating : indices;
    // Out of rotation altogether: the replica available soonest first.
    const availableAt = (i: number) =>
      rotating.length > 0 ? 0 : Math.max(this.states[i].outUntil, this.states[i].busyUntil);
    const load = (i: number) => this.states[i].inFlight / this.specs[i].weight;
    const free = candidates.filter((i) => this.states[i].inFlight < this.specs[i].concurrency);
    if (free.length === 0) return undefined;
    const soonest = Math.min(...free.map(availableAt));
    const early = free.filter((i) => availableAt(i) === soonest);
    const least = Math.min(...early.map(load));
    const tied = early.filter((i) => load(i) === least);
    for (const i of tied) this.credit[i] += this.specs[i].weight;
    const best = tied.reduce((a, b) => (this.credit[b] > this.credit[a] ? b : a));
    this.credit[best] -= tied.reduce((sum, i) => sum + this.specs[i].weight, 0);
    return best;
  }

  /** Replicas whose back-off has ended get a health check; with none configured they simply return. */
  private startProbes(now: number): void {
    const probe = this.options.probe;
    if (!probe) return;
    this.states.forEach((s, i) => {
      if (s.outUntil === 0 || s.outUntil > now || s.probing) return;
      s.probing = true;
      const settle = (ok: boolean) => {
        s.probing = false;
        if (ok) Object.assign(s, { failures: 0, outUntil: 0 });
        else this.takeOut(s, this.now());
        this.drain();
      };
      probe(i).then(settle, () => settle(false));
    });
  }

  /**
   * Hands freed slots to waiting calls, in arrival order (stopping once every slot is taken, so a long queue costs
   * nothing per release).
   */
  private drain(): void {
    for (let w = 0; w < this.waiting.length && this.states.some((s, i) => s.inFlight < this.specs[i].concurrency); ) {
      const picked = this.pick(this.waiting[w].avoid);
      if (picked === undefined) {
        w++;
        continue;
      }
      const [waiter] = this.waiting.splice(w, 1);
      waiter.resolve(this.take(picked));
    }
  }
}
