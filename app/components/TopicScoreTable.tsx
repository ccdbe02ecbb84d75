/** Per topic: the turns the judge located, the 1–5 score there, each party's stance, and why. */
import type { Party, Topic } from "../domain/bundle.ts";
import type { EvaluationView } from "../domain/catalog-views.ts";
import { ScrollX } from "./ScrollX.tsx";

export function TopicScoreTable({
  evaluation,
  topics,
  parties,
}: {
  evaluation: Pick<EvaluationView, "backbone" | "topics" | "reasons">;
  topics: Topic[];
  parties: Party[];
}) {
  return (
    <div className="topic-scores" data-testid="topic-scores">
      <p className="muted">Judge: {evaluation.backbone}</p>
      {evaluation.topics.map((series) => {
        const topic = topics.find((t) => t.id === series.topicId);
        const locatedTurns = series.located.flatMap((isLocated, t) => (isLocated ? [t] : []));
        return (
          <details key={series.topicId} open>
            <summary>
              <code>{series.topicId}</code> {topic?.name} — final score{" "}
              <strong>{series.values[series.values.length - 1]}</strong>/5
            </summary>
            {locatedTurns.length === 0 ? (
              <p className="muted">The judge located no turn for this topic: it stays at its starting score.</p>
            ) : (
              <ScrollX label={`Scores and stances for ${series.topicId}`}>
                <table className="mini-table">
                  <thead>
                    <tr>
                      <th>Turn</th>
                      <th className="num">Score</th>
                      {parties.map((p) => (
                        <th key={p.id}>{p.id}</th>
                      ))}
                      <th>Reason</th>
                    </tr>
                  </thead>
                  <tbody>
                    {locatedTurns.map((t) => (
                      <tr key={t}>
                        <td>
                          <a href={`#turn-${t}`}>{t}</a>
                        </td>
                        <td className="num">
                          <span className={`score score-${series.values[t]}`}>{series.values[t]}</span>
                        </td>
                        {parties.map((p) => (
                          <td key={p.id}>{series.stances[t]?.[p.id] ?? "—"}</td>
                        ))}
                        <td>{evaluation.reasons[series.topicId]?.[t] ?? ""}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollX>
            )}
          </details>
        );
      })}
    </div>
  );
}
