/** Background, topics with lettered options, and parties with their stances and weights. */
import type { Party, Topic } from "../domain/bundle.ts";

export function ScenarioDetails({
  background,
  topics,
  parties,
  collapsible = false,
}: {
  background: string;
  topics: Topic[];
  parties: Party[];
  collapsible?: boolean;
}) {
  const body = (
    <>
      <p className="background">{background}</p>
      <div className="topics">
        {topics.map((topic) => (
          <section key={topic.id} className="topic">
            <h3>
              <code>{topic.id}</code> {topic.name}
            </h3>
            <p className="muted">{topic.description}</p>
            <ol className="options">
              {topic.options.map((o) => (
                <li key={o.label}>
                  <strong>({o.label})</strong> {o.description}
                </li>
              ))}
            </ol>
          </section>
        ))}
      </div>
      <div className="parties">
        {parties.map((party, i) => (
          <section key={party.id} className={`party-card party-${i}`}>
            <h3>
              {party.name} <code>{party.id}</code>
            </h3>
            <p>{party.role}</p>
            <p className="muted">{party.relation}</p>
            <table className="mini-table">
              <tbody>
                {topics.map((t) => (
                  <tr key={t.id}>
                    <th>{t.id}</th>
                    <td className="num">{party.weights[t.id]}/10</td>
                    <td>{party.preferences[t.id]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {party.persona ? <p className="persona">{party.persona}</p> : null}
          </section>
        ))}
      </div>
    </>
  );
  return collapsible ? (
    <details className="scenario-details">
      <summary>Scenario: background, topics and parties</summary>
      {body}
    </details>
  ) : (
    body
  );
}
