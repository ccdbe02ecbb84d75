/**
 * The run page's mediator decisions, from what its loader reads (getRunView) for a social run simulated against the
 * stand-in: each decision's motivation against the threshold, its thought, the tracker, and the candidates with
 * strategy, ratings and the one voiced.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { MediatorDecisions } from "../../../app/components/MediatorDecisions.tsx";
import type { MediatorDecision } from "../../../app/domain/bundle.ts";
import { getRunView } from "../../../app/server/catalog.server.ts";
import { simulateBatch } from "../../../app/server/pipeline/simulate.server.ts";
import { demoSimulationSetup, MEDIATOR_MODEL } from "./helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const cellsOf = (row: string) => [...row.matchAll(/<t[hd](?:\s[^>]*)?>(.*?)<\/t[hd]>/g)].map((m) => m[1]);

describe("the run page's mediator decisions", () => {
  it("shows a social run's motivation, thought, tracker, and candidates with ratings and the one voiced", async () => {
    const { db, llm } = await demoSimulationSetup(cleanups);
    const base = { db, llm, scenarioId: "demo-transactional-1", mediator: MEDIATOR_MODEL, runs: 1, budget: 16 };
    const summary = await simulateBatch({ ...base, seed: 4, mediatorMode: "social", withUnmediated: false });
    const view = (await getRunView(db, summary.stored[0]))!;
    const decisions = view.run.mediatorDecisions as MediatorDecision[];
    const html = renderToStaticMarkup(<MediatorDecisions decisions={decisions} topics={view.played.topics} />);

    expect(html).toContain('<h2 id="mediator-decisions">Mediator decisions</h2>');
    const engaged = decisions.find((d) => d.candidates)!;
    expect(engaged).toBeDefined();
    const block = html.split(`data-after-turn="${engaged.after_turn}"`)[1].split("</details>")[0];
    expect(block).toContain(`motivation ${engaged.motivation} vs threshold 3.5`);
    expect(block).toContain(`Thought: ${engaged.thought}`);
    // The candidates table: a header per dimension, one row per strategy with its ratings, the chosen one marked.
    const table = block.split('data-testid="mediator-candidates"')[1].split("</table>")[0];
    expect(cellsOf(table.split("</thead>")[0])).toEqual([
      "Strategy",
      "Draft",
      "Perception",
      "Emotion",
      "Cognition",
      "Communication",
      "Mean",
      "Voiced",
    ]);
    const rows = table.split("</thead>")[1].split("</tr>").slice(0, -1);
    expect(rows).toHaveLength(4);
    engaged.candidates!.forEach((c, i) => {
      const cells = cellsOf(rows[i]);
      expect(cells[0]).toBe(c.strategy);
      expect(cells.slice(2, 6)).toEqual(
        [c.ratings.perception, c.ratings.emotion, c.ratings.cognition, c.ratings.communication].map(String),
      );
      expect(cells[6]).toBe(c.overall.toFixed(2));
      expect(cells[7]).toBe(i === engaged.chosen ? "✓ chosen" : "");
    });
    // The tracker table names every topic with its state.
    for (const t of view.played.topics) expect(block).toContain(`<th scope="row">${t.name}</th>`);
    // A decision that held back shows its motivation and no candidates.
    const held = decisions.find((d) => !d.engage)!;
    const heldBlock = html.split(`data-after-turn="${held.after_turn}"`)[1].split("</details>")[0];
    expect(heldBlock).toContain(`held back (motivation ${held.motivation} vs threshold 3.5)`);
    expect(heldBlock).not.toContain("mediator-candidates");
    // The closing decision says so.
    const closing = decisions.find((d) => d.closing);
    if (closing) expect(html).toContain(`After turn ${closing.after_turn}: closed: every topic settled`);
  });

  it("shows nothing for an unmediated run", () => {
    expect(renderToStaticMarkup(<MediatorDecisions decisions={[]} topics={[]} />)).toBe("");
  });
});
