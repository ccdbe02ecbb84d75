/** The closing summary of a curation, per domain, from its seeds and candidates. Pure. */
export interface CandidateFacts {
  domain: string;
  status: string;
  rejection: string | null;
  reason: string | null;
}

export interface DomainSummary {
  domain: string;
  seeds: number;
  candidates: number;
  accepted: number;
  rejectedInvalid: number;
  /** replay number → candidates rejected because that replay resolved. */
  rejectedResolved: Record<number, number>;
  /** accepted / candidates, or null before any candidate. */
  acceptanceRate: number | null;
}

export function summariseDomain(domain: string, seedCount: number, candidates: CandidateFacts[]): DomainSummary {
  const own = candidates.filter((c) => c.domain === domain);
  const rejectedResolved: Record<number, number> = {};
  for (const c of own.filter((c) => c.rejection === "resolved")) {
    const replay = Number(/replay (\d+)/.exec(c.reason ?? "")?.[1] ?? 0);
    rejectedResolved[replay] = (rejectedResolved[replay] ?? 0) + 1;
  }
  const accepted = own.filter((c) => c.status === "accepted").length;
  return {
    domain,
    seeds: seedCount,
    candidates: own.length,
    accepted,
    rejectedInvalid: own.filter((c) => c.rejection === "invalid").length,
    rejectedResolved,
    acceptanceRate: own.length > 0 ? accepted / own.length : null,
  };
}

export function describeDomainSummary(s: DomainSummary): string {
  const resolved = Object.entries(s.rejectedResolved).map(([r, n]) => `resolved on replay ${r}: ${n}`);
  const rejected = [`invalid scenario: ${s.rejectedInvalid}`, ...resolved].join(", ");
  const rate = s.acceptanceRate === null ? "n/a" : `${Math.round(s.acceptanceRate * 100)}%`;
  return `${s.domain}: seeds ${s.seeds}, candidates ${s.candidates}, accepted ${s.accepted}, rejected (${rejected}), acceptance rate ${rate}`;
}
