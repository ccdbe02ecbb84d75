/** Curation per domain: candidates accepted, and rejected by reason, with the rejected ones listed. */
import type { CurationDomainSummary } from "../../domain/curation/record-view.ts";

const REJECTION_LABELS: Record<string, string> = { invalid: "invalid scenario", resolved: "resolved on replay" };
const REJECTIONS = Object.entries(REJECTION_LABELS);

export function CurationSummary({ domains }: { domains: CurationDomainSummary[] }) {
  if (domains.length === 0) return null;
  const rejectedCount = (d: CurationDomainSummary) => Object.values(d.rejected).reduce((a, b) => a + b, 0);
  return (
    <section aria-labelledby="curation-title">
      <h2 id="curation-title">Curation</h2>
      <table className="data-table curation-summary">
        <thead>
          <tr>
            <th>Domain</th>
            <th className="num">Accepted</th>
            {REJECTIONS.map(([kind, label]) => (
              <th key={kind} className="num">
                Rejected: {label}
              </th>
            ))}
            <th className="num">Acceptance rate</th>
          </tr>
        </thead>
        <tbody>
          {domains.map((d) => (
            <tr key={d.domain}>
              <td>
                <span className="domain">{d.domain}</span>
              </td>
              <td className="num">{d.accepted}</td>
              {REJECTIONS.map(([kind]) => (
                <td key={kind} className="num">
                  {d.rejected[kind] ?? 0}
                </td>
              ))}
              <td className="num">{Math.round((100 * d.accepted) / (d.accepted + rejectedCount(d)))}%</td>
            </tr>
          ))}
        </tbody>
      </table>
      <RejectedList domains={domains.filter((d) => d.rejectedCandidates.length > 0)} />
    </section>
  );
}

function RejectedList({ domains }: { domains: CurationDomainSummary[] }) {
  if (domains.length === 0) return null;
  return (
    <details className="rejected-candidates">
      <summary>Rejected candidates ({domains.reduce((n, d) => n + d.rejectedCandidates.length, 0)})</summary>
      {domains.map((d) => (
        <section key={d.domain}>
          <h3>
            <span className="domain">{d.domain}</span>
          </h3>
          <ul>
            {d.rejectedCandidates.map((c, i) => (
              <li key={i}>
                <strong>{c.seedTitle}</strong> — {REJECTION_LABELS[c.rejection] ?? c.rejection}
                {c.reason ? <span className="reason">: {c.reason}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </details>
  );
}
