/** A consensus label's answer in words: per topic its score and each party's position. */
import type { AnswerSummaryProps } from "../task-ui.tsx";
import type { ConsensusSummary, TopicSummary } from "./review.ts";

export function ConsensusAnswerSummary({ summary, changed, full }: AnswerSummaryProps<ConsensusSummary>) {
  return (
    <ul className="answer-summary">
      {summary.topics.map((topic) => (
        <TopicLine key={topic.topicId} topic={topic} changed={changed} full={full} />
      ))}
    </ul>
  );
}

function TopicLine({ topic, changed, full }: { topic: TopicSummary; changed: readonly string[]; full: boolean }) {
  const base = `topics.${topic.topicId}`;
  const mark = (path: string) => (changed.includes(path) ? " changed" : "");
  return (
    <li>
      <strong className="answer-topic">{topic.name}</strong>{" "}
      <span className={`answer-score${mark(`${base}.score`)}`}>
        score {topic.score}
        {topic.scoreLabel ? ` (${topic.scoreLabel})` : ""}
      </span>
      {topic.carriedForward ? (
        <span className={`chip answer-carried${mark(`${base}.carriedForward`)}`}>carried forward</span>
      ) : null}
      <ul className="answer-positions">
        {topic.positions.map((p) => (
          <li key={p.partyId} className={`answer-position${mark(`${base}.positions.${p.partyId}`)}`}>
            <span className="answer-party">{p.party}:</span>{" "}
            {p.letter ? <b className="answer-letter">{p.letter}</b> : null} {full ? p.fullText : p.text}
          </li>
        ))}
      </ul>
    </li>
  );
}
