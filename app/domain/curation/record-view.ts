/**
 * What the research pages show of curation: a curated scenario's seed report, sources and
 * acceptance record, and the accepted/rejected counts per domain. Pure shaping of stored JSON,
 * tolerant of reports written by an older searcher (a missing field shows as empty, never breaks
 * the page); the types are what the components read.
 */
import type { SeedReport } from "./seed.ts";

/** The report as shown: every field of a seed report except its sources, which are shown as links. */
export type SeedReportView = Omit<SeedReport, "sources">;

/** A cited source; `href` is null when the stored URL is not http(s) and must not become a link. */
export interface SourceLinkView {
  href: string | null;
  text: string;
}

export interface ReplayView {
  replay: number;
  outcome: string;
  runId: string | null;
}

export interface CurationRecordView {
  seed: { id: string; title: string; sourceKind: string; report: SeedReportView; sources: SourceLinkView[] };
  status: string;
  replays: ReplayView[];
}

export interface RejectedCandidateView {
  seedTitle: string;
  rejection: string;
  reason: string;
}

export interface CurationDomainSummary {
  domain: string;
  accepted: number;
  /** Rejected candidates by kind of rejection (invalid | resolved). */
  rejected: Record<string, number>;
  rejectedCandidates: RejectedCandidateView[];
}

/** The URL itself when it is an absolute http(s) URL, else null (javascript:, data:, relative …). */
export function safeHttpUrl(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  try {
    const url = new URL(raw.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const field = (v: unknown, key: string): unknown =>
  v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;

export function seedReportView(report: unknown, fallbackTitle: string): SeedReportView {
  return {
    title: str(field(report, "title")) || fallbackTitle,
    summary: str(field(report, "summary")),
    parties: list(field(report, "parties")).map((p) => ({
      name: str(field(p, "name")),
      description: str(field(p, "description")),
    })),
    issues: list(field(report, "issues")).map(str).filter(Boolean),
    timeline: list(field(report, "timeline")).map((e) => ({
      date: str(field(e, "date")),
      event: str(field(e, "event")),
    })),
    tensions: list(field(report, "tensions")).map(str).filter(Boolean),
    status: str(field(report, "status")),
  };
}

export function sourceLinks(sources: unknown): SourceLinkView[] {
  return list(sources).map((s) => {
    const url = str(field(s, "url"));
    return { href: safeHttpUrl(url), text: str(field(s, "title")) || url };
  });
}

export function replayViews(replays: unknown): ReplayView[] {
  return list(replays)
    .map((r) => ({
      replay: Number(field(r, "replay")),
      outcome: str(field(r, "outcome")),
      runId: str(field(r, "runId")) || null,
    }))
    .sort((a, b) => a.replay - b.replay);
}

export interface CandidateSummaryRow {
  domain: string;
  status: string;
  rejection: string | null;
  reason: string | null;
  seedTitle: string;
}

/** Accepted and rejected (by kind) per domain, domains in alphabetical order. */
export function curationSummary(rows: CandidateSummaryRow[]): CurationDomainSummary[] {
  const byDomain = new Map<string, CurationDomainSummary>();
  for (const row of rows) {
    let entry = byDomain.get(row.domain);
    if (!entry)
      byDomain.set(row.domain, (entry = { domain: row.domain, accepted: 0, rejected: {}, rejectedCandidates: [] }));
    if (row.status === "accepted") entry.accepted++;
    else {
      const kind = row.rejection ?? "unknown";
      entry.rejected[kind] = (entry.rejected[kind] ?? 0) + 1;
      entry.rejectedCandidates.push({ seedTitle: row.seedTitle, rejection: kind, reason: row.reason ?? "" });
    }
  }
  return [...byDomain.values()].sort((a, b) => a.domain.localeCompare(b.domain));
}
