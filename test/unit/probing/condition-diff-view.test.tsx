// The diff as the scenario page renders it: additions in <ins>, removals in <del>, levels as fractions.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ConditionDiffView } from "../../../app/components/probing/ConditionDiffView.tsx";
import { conditionDiff } from "../../../app/domain/probing/condition-diff.ts";
import { GENERAL_BODY, probingConditions, STRATEGY_TEXT } from "../../fixtures/probing-fixture.ts";

const render = (id: string) =>
  renderToStaticMarkup(
    <ConditionDiffView diff={conditionDiff(GENERAL_BODY, probingConditions().find((c) => c.id === id)!.expanded!)} />,
  );

describe("ConditionDiffView", () => {
  it("marks the appended strategy paragraph as inserted text", () => {
    const html = render("probe-fx:strategy:competing");
    expect(html).toContain(`<ins>\n\n${STRATEGY_TEXT}</ins>`);
    expect(html).toContain("Background: text added after the original.");
    expect(html).toContain("Unchanged: Buyer, Seller.");
  });

  it("shows reactiveness levels as grid fractions with chips", () => {
    const html = render("probe-fx:fidelity:BUY-2of3-ref1of3");
    expect(html).toContain("reactiveness: <del>—</del> → <ins>2/3</ins>");
    expect(html).toContain('<span class="chip persona-chip">reactiveness 1/3</span>');
  });
});
