/** The seed report a curated scenario was written from, with its sources, to check the scenario is faithful to it. */
import type { CurationRecordView, SourceLinkView } from "../../domain/curation/record-view.ts";

const SOURCE_KINDS: Record<string, string> = {
  "web-research": "web research",
  "search-tools": "search tools",
  files: "local files",
};

export function SeedReport({ seed }: { seed: CurationRecordView["seed"] }) {
  const { report } = seed;
  return (
    <section className="seed-report" aria-labelledby="seed-report-title">
      <h2 id="seed-report-title">Seed report</h2>
      <p className="muted">
        The real dispute this scenario recasts, as the searcher found it (
        {SOURCE_KINDS[seed.sourceKind] ?? seed.sourceKind}).
      </p>
      <h3>{report.title}</h3>
      {report.summary ? <p>{report.summary}</p> : null}
      {report.status ? (
        <p>
          <strong>Status:</strong> {report.status}
        </p>
      ) : null}
      <TextList
        title="Parties"
        items={report.parties.map((p) => (p.description ? `${p.name}: ${p.description}` : p.name))}
      />
      <TextList title="Contested issues" items={report.issues} />
      {report.timeline.length > 0 ? (
        <>
          <h4>Timeline</h4>
          <dl className="seed-timeline">
            {report.timeline.map((e, i) => (
              <div key={i}>
                <dt>{e.date}</dt>
                <dd>{e.event}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      <TextList title="Institutional tensions" items={report.tensions} />
      <h4>Sources</h4>
      <SourceList sources={seed.sources} />
    </section>
  );
}

function TextList({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <>
      <h4>{title}</h4>
      <ul>
        {items.map((item, i) => (
          <li key={i}>{item}</li>
        ))}
      </ul>
    </>
  );
}

/** Only http(s) URLs become links, opened without handing the source page a reference to ours. */
function SourceList({ sources }: { sources: SourceLinkView[] }) {
  if (sources.length === 0) return <p className="muted">No sources recorded (a seed from local files).</p>;
  return (
    <ul className="seed-sources">
      {sources.map((s, i) => (
        <li key={i}>
          {s.href ? (
            <a href={s.href} target="_blank" rel="noopener noreferrer">
              {s.text}
            </a>
          ) : (
            <span title="not an http(s) address, so not a link">{s.text}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
