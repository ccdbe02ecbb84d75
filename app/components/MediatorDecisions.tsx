/**
 * The run page's mediator decisions: after each party turn, whether the mediator stepped in and why. For the socially
 * intelligent mediator also its motivation against its threshold, its consensus tracker, and the four candidates it
 * drafted with their ratings and which one it voiced (docs/benchmark.md "Mediator modes").
 */
import type { MediatorDecision } from "../domain/bundle.ts";
import { ScrollX } from "./ScrollX.tsx";

interface Props {
  decisions: readonly MediatorDecision[];
  topics: readonly { id: string; name: string }[];
}

const DIMENSIONS = [
  ["perception", "Perception"],
  ["emotion", "Emotion"],
  ["cognition", "Cognition"],
  ["communication", "Communication"],
] as const;

function verdict(d: MediatorDecision): string {
  if (d.closing) return "closed: every topic settled";
  return d.engage ? "stepped in" : "held back";
}

export function MediatorDecisions({ decisions, topics }: Props) {
  if (decisions.length === 0) return null;
  const engaged = decisions.filter((d) => d.engage).length;
  return (
    <section aria-labelledby="mediator-decisions" data-testid="mediator-decisions">
      <h2 id="mediator-decisions">Mediator decisions</h2>
      <p className="muted">
        {decisions.length} decisions, {engaged} interventions.
      </p>
      {decisions.map((d) => (
        <details key={d.after_turn} data-after-turn={d.after_turn} open={d.engage}>
          <summary>
            <h3 style={{ display: "inline", fontSize: "1rem" }}>
              After turn {d.after_turn}: {verdict(d)}
              {d.motivation !== undefined ? ` (motivation ${d.motivation} vs threshold ${d.threshold})` : ""}
            </h3>
          </summary>
          {d.thought ? <p>Thought: {d.thought}</p> : null}
          {d.tracker ? (
            <ScrollX label={`Consensus tracker after turn ${d.after_turn}`}>
              <Tracker decision={d} topics={topics} />
            </ScrollX>
          ) : null}
          {d.candidates ? (
            <ScrollX label={`Candidate interventions after turn ${d.after_turn}`}>
              <Candidates decision={d} />
            </ScrollX>
          ) : null}
        </details>
      ))}
    </section>
  );
}

function Tracker({ decision, topics }: { decision: MediatorDecision; topics: Props["topics"] }) {
  return (
    <table className="data-table">
      <caption>Consensus tracker after turn {decision.after_turn}</caption>
      <thead>
        <tr>
          <th scope="col">Topic</th>
          <th scope="col">State</th>
          <th scope="col">Options in play</th>
          <th scope="col">Note</th>
        </tr>
      </thead>
      <tbody>
        {decision.tracker!.map((t) => (
          <tr key={t.topic_id}>
            <th scope="row">{topics.find((x) => x.id === t.topic_id)?.name ?? t.topic_id}</th>
            <td>{t.settled ? "settled" : "open"}</td>
            <td>{t.options.join(", ")}</td>
            <td>{t.note ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Candidates({ decision }: { decision: MediatorDecision }) {
  return (
    <table className="data-table" data-testid="mediator-candidates">
      <caption>Candidate interventions after turn {decision.after_turn}, rated 1–5</caption>
      <thead>
        <tr>
          <th scope="col">Strategy</th>
          <th scope="col">Draft</th>
          {DIMENSIONS.map(([key, label]) => (
            <th key={key} scope="col" className="num">
              {label}
            </th>
          ))}
          <th scope="col" className="num">
            Mean
          </th>
          <th scope="col">Voiced</th>
        </tr>
      </thead>
      <tbody>
        {decision.candidates!.map((c, i) => (
          <tr key={c.strategy} data-chosen={i === decision.chosen ? "true" : undefined}>
            <th scope="row">{c.strategy}</th>
            <td>
              {c.text}
              {c.reason ? <div className="muted">{c.reason}</div> : null}
            </td>
            {DIMENSIONS.map(([key]) => (
              <td key={key} className="num">
                {c.ratings[key]}
              </td>
            ))}
            <td className="num">{c.overall.toFixed(2)}</td>
            <td>{i === decision.chosen ? "✓ chosen" : ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
