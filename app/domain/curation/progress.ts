/** The curation's progress line: per domain, accepted against the quota, cost against the cap, and an ETA. Pure. */

export interface CurationProgress {
  domain: string;
  accepted: number;
  perDomain: number;
  candidates: number;
  costUsd: number;
  maxCostUsd: number | null;
  elapsedMs: number;
  /** Scenarios accepted by this run so far (over every domain), and still wanted (over every domain). */
  acceptedThisRun: number;
  remaining: number;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** Time left at this run's pace so far, or null before the first acceptance. */
export function etaMs(p: Pick<CurationProgress, "elapsedMs" | "acceptedThisRun" | "remaining">): number | null {
  if (p.remaining === 0) return 0;
  return p.acceptedThisRun > 0 ? (p.elapsedMs / p.acceptedThisRun) * p.remaining : null;
}

export function progressLine(p: CurationProgress): string {
  const cost = `$${p.costUsd.toFixed(4)}${p.maxCostUsd === null ? "" : ` of $${p.maxCostUsd.toFixed(2)}`}`;
  const eta = etaMs(p);
  return `${p.domain}: ${p.accepted}/${p.perDomain} accepted, ${p.candidates} candidates; cost ${cost}; ETA ${eta === null ? "unknown yet" : formatDuration(eta)}`;
}
