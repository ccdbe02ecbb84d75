/**
 * Several `benchmark run` processes on one database share the work through leases in
 * work_leases (app/server/models/work-lease.server.ts): a grid unit is worked on by the one
 * worker holding `unit:<its unmediated run id>`, and an LLM request by the one holding
 * `call:<its cache key>` (the others wait for its stored reply instead of paying again). A
 * worker renews its leases while it works; a killed worker's leases lapse after the lease time
 * and are taken over — at once when the holder was a process on this machine that no longer
 * exists.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "../db.server.ts";
import type { SharedRequests } from "../llm/context.server.ts";
import {
  claimLease,
  heldByOther,
  leaseClock,
  leaseWrite,
  releaseLease,
  renewLeases,
  sweepLeases,
} from "../models/work-lease.server.ts";

/** How long a lease lasts without renewal: long enough that a busy event loop never lets one lapse. */
export const DEFAULT_LEASE_MS = 30_000;
/** How often a worker waiting on another's work looks again. */
const POLL_MS = 100;

export interface WorkerLeases extends SharedRequests {
  readonly holder: string;
  claim(key: string): Promise<boolean>;
  release(key: string): Promise<void>;
  /** Stops renewing and gives every lease still held up. */
  close(): Promise<void>;
}

export interface WorkerLeaseOptions {
  ttlMs?: number;
  now?: () => number;
}

/** Whether a holder id names a process of this machine that has ended (its leases are void). */
function deadLocalHolder(holder: string): boolean {
  const [host, pid] = holder.split("|");
  if (host !== hostname() || !/^\d+$/.test(pid ?? "")) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export async function workerLeases(db: Db, options: WorkerLeaseOptions = {}): Promise<WorkerLeases> {
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_MS;
  const now = options.now ?? (await leaseClock(db));
  const holder = `${hostname()}|${process.pid}|${randomUUID().slice(0, 8)}`;
  const held = new Set<string>();
  // Leases a dead worker left on work already finished are never claimed again: clear them first.
  await sweepLeases(db, now(), deadLocalHolder);
  // A failed renewal is tried again at the next tick (a lease lasts three); `close` waits for the last one.
  let renewing: Promise<unknown> = Promise.resolve();
  const renew = () => {
    renewing = leaseWrite(db, (db) => renewLeases(db, holder, [...held], now(), ttlMs)).catch(() => 0);
  };
  const timer = setInterval(renew, Math.max(10, Math.floor(ttlMs / 3)));
  timer.unref();

  // Keys another worker held at the last try: looked at before a claim, which would lock their row.
  const heldElsewhere = new Set<string>();
  /** Claims the key: one statement when it is free, one look at its holder more when it is not. */
  async function take(key: string): Promise<boolean> {
    const other = heldElsewhere.has(key) ? await heldByOther(db, key, holder, now()) : undefined;
    if (!other && (await claimLease(db, key, holder, now(), ttlMs))) return true;
    const still = other ?? (await heldByOther(db, key, holder, now()));
    if (!still) return claimLease(db, key, holder, now(), ttlMs); // given up since the claim
    if (!deadLocalHolder(still.holder)) return false;
    // A lease of a process of this machine that no longer runs is taken over without waiting for it to lapse.
    return claimLease(db, key, holder, still.expiresAt, ttlMs + (now() - still.expiresAt));
  }
  async function claim(key: string): Promise<boolean> {
    if (!(await take(key))) {
      if (heldElsewhere.size >= 10_000) heldElsewhere.clear(); // a hint only: bounded
      heldElsewhere.add(key);
      return false;
    }
    heldElsewhere.delete(key);
    held.add(key);
    return true;
  }
  async function release(key: string): Promise<void> {
    if (!held.delete(key)) return;
    await leaseWrite(db, (db) => releaseLease(db, key, holder));
  }
  return {
    holder,
    claim,
    release,
    claimRequest: (key) => claim(`call:${key}`),
    releaseRequest: (key) => release(`call:${key}`),
    pause: () => new Promise((resolve) => setTimeout(resolve, POLL_MS)),
    async close() {
      clearInterval(timer);
      await renewing; // before the caller closes the database
      for (const key of [...held]) await release(key);
    },
  };
}

/**
 * Hands out items one at a time, each only once this worker holds its lease. An item another
 * live worker holds is set aside and tried again (after a pause) until that worker releases it —
 * the caller then reads what is left of it from the database — or its lease lapses. The workers
 * of a pool share one pause, so the items set aside are tried once per pause, not once per worker.
 */
export function leasedQueue<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  leases: WorkerLeases | undefined,
  stopped: () => boolean,
) {
  const ready = [...items];
  let waiting: T[] = [];
  let pausing: Promise<void> | undefined;
  const pause = async () => {
    await leases?.pause();
    ready.push(...waiting);
    waiting = [];
    pausing = undefined;
  };
  return {
    async next(): Promise<T | undefined> {
      while (!stopped()) {
        const item = ready.shift();
        if (item === undefined) {
          if (waiting.length === 0 && !pausing) return undefined;
          await (pausing ??= pause());
          continue;
        }
        if (!leases || (await leases.claim(keyOf(item)))) return item;
        waiting.push(item);
      }
      return undefined;
    },
    async done(item: T): Promise<void> {
      await leases?.release(keyOf(item));
    },
  };
}
