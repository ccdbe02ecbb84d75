// The dashboard's backbone comparison: which reference is used, and the panel as it renders, from
// a real alignment table with three evaluator backbones.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  BackboneComparisonPanel,
  formatCi,
  formatCoefficient,
  formatP,
} from "../../../app/components/dashboard/index.ts";
import { VERDICT_TEXT } from "../../../app/components/dashboard/BackboneComparisonPanel.tsx";
import { alignmentTable, compareBackbones, type ValueLookup } from "../../../app/domain/validation/index.ts";
import { comparisonPanel } from "../../../app/domain/validation/comparison-panel.ts";
import { item, label } from "./fixtures.ts";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

// Four runs of three snippets, topics T1–T2; one expert scores every unit.
const runs = ["r1", "r2", "r3", "r4"];
const items = runs.flatMap((runId, r) =>
  [1, 2, 3].map((position) => item(r * 3 + position, runId, position, { endTurn: position * 2, last: position === 3 })),
);
const expert = (id: number) => ({ T1: 1 + ((id * 3) % 5), T2: 1 + ((id * 7 + 2) % 5) });
const labels = items.map((i) => label(i.itemId as number, "e1", "expert", expert(i.itemId as number)));
const itemAt = (runId: string, tEnd: number) =>
  items.find((i) => i.runId === runId && i.endTurn === tEnd)!.itemId as number;
const expertScore = (runId: string, topicId: string, tEnd: number) =>
  expert(itemAt(runId, tEnd))[topicId as "T1" | "T2"];
/** The expert score off by one on every fourth item ("exact") or every third ("close"), or unrelated ("noisy"). */
const offBy =
  (every: number): ValueLookup =>
  (runId, topicId, tEnd) => {
    const v = expertScore(runId, topicId, tEnd);
    return itemAt(runId, tEnd) % every === 0 ? (v === 5 ? 4 : v + 1) : v;
  };
const exact = offBy(4);
const close = offBy(3);
const noisy: ValueLookup = (runId, topicId, tEnd) =>
  1 + ((itemAt(runId, tEnd) * itemAt(runId, tEnd) + topicId.charCodeAt(1)) % 5);
const table = alignmentTable(items, labels, {
  evaluators: [
    { backbone: "close", valueAt: close },
    { backbone: "exact", valueAt: exact },
    { backbone: "noisy", valueAt: noisy },
  ],
  s0: 1,
});
const href = (b: string) => `?reference=${encodeURIComponent(b)}`;
const boot = { draws: 200, seed: 7 };

describe("comparisonPanel", () => {
  it("defaults to the backbone with the best trajectory-level r and tests every other against it", () => {
    const panel = comparisonPanel(table, null, boot)!;
    expect(panel.backbones).toEqual(["close", "exact", "noisy"]);
    expect(panel.reference).toBe("exact");
    expect(panel.defaultReference).toBe("exact");
    expect(panel.unknownReference).toBeNull();
    expect(panel.comparisons.map((c) => [c.candidate, c.reference])).toEqual([
      ["close", "exact"],
      ["noisy", "exact"],
    ]);
    expect(panel.comparisons[1]).toEqual(compareBackbones(table, "noisy", "exact", boot));
    expect(panel.constants).toEqual({ s0: 1, minExpertLabels: 1 });
  });

  it("uses the reference asked for when it is stored, and says so when it is not", () => {
    expect(comparisonPanel(table, "noisy", boot)!.comparisons.map((c) => c.candidate)).toEqual(["close", "exact"]);
    const unknown = comparisonPanel(table, "gpt-9", boot)!;
    expect(unknown.unknownReference).toBe("gpt-9");
    expect(unknown.reference).toBe("exact");
    // The baseline's backbone is no evaluator backbone to refer to.
    expect(comparisonPanel(alignmentTable(items, labels, { evaluators: [] }), null)).toBeNull();
  });
});

describe("BackboneComparisonPanel", () => {
  it("shows Δr, Williams' t and p, both intervals, n and a verdict per backbone and level, and the constants", () => {
    const panel = comparisonPanel(table, null, boot)!;
    const html = renderToStaticMarkup(<BackboneComparisonPanel panel={panel} hrefFor={href} />);
    const t = text(html);
    const noisy = panel.comparisons[1];
    expect(noisy.trajectory.verdict).toBe("worse");
    const tr = noisy.trajectory;
    expect(t).toContain(
      `noisy Trajectory significantly below the reference ${formatCoefficient(tr.difference)} ${formatCoefficient(tr.rCandidate)} ${formatCoefficient(tr.rReference)} ` +
        `${formatCoefficient(tr.williams.t)} (${tr.williams.df}) ${formatP(tr.williams.p)} ${formatCi(tr.zou?.ci)} ${formatCi(tr.bootstrap.ci)} ${tr.n} / ${tr.trajectories}`,
    );
    const out = noisy.outcome;
    expect(t).toContain(
      `Outcome ${VERDICT_TEXT[out.verdict]} ${formatCoefficient(out.difference)} ${formatCoefficient(out.rCandidate)} ${formatCoefficient(out.rReference)}`,
    );
    expect(tr.n).toBe(24);
    expect(tr.trajectories).toBe(4);
    expect(t).toContain("Difference from the reference backbone: exact");
    expect(t).toContain("at least 1 expert label per unit; s0 = 1");
    expect(t).toContain("200 draws, seed 7");
    expect(t).toContain(`α = ${noisy.alpha}`);
    expect(t).toContain("Zou's (2007) 95% CI");
    // The reference is marked, the others link to themselves as reference.
    expect(html).toContain('<strong aria-current="true">exact</strong>');
    expect(html).toContain('<a href="?reference=noisy" data-reference="noisy">noisy</a>');
    expect(html).not.toContain("No stored backbone");
  });

  it("notes an unknown reference and, with one backbone, says what to do to compare", () => {
    const unknown = text(
      renderToStaticMarkup(<BackboneComparisonPanel panel={comparisonPanel(table, "gpt-9", boot)!} hrefFor={href} />),
    );
    expect(unknown).toContain("No stored backbone is called “gpt-9”; comparing against the default, exact, instead.");
    const single = alignmentTable(items, labels, { evaluators: [{ backbone: "exact", valueAt: exact }] });
    const alone = text(
      renderToStaticMarkup(<BackboneComparisonPanel panel={comparisonPanel(single, null, boot)!} hrefFor={href} />),
    );
    expect(alone).toContain("Only exact has evaluated these runs");
    expect(alone).not.toContain("Williams");
  });

  it("says a level is not testable, and why, when the shared units are too few", () => {
    // "partial" evaluated r1 only: 6 units at trajectory level, 2 final-snippet units.
    const partial: ValueLookup = (runId, topicId, tEnd) => (runId === "r1" ? close(runId, topicId, tEnd) : null);
    const two = alignmentTable(items, labels, {
      evaluators: [
        { backbone: "exact", valueAt: exact },
        { backbone: "partial", valueAt: partial },
      ],
    });
    const panel = comparisonPanel(two, "exact", boot)!;
    const outcome = panel.comparisons[0].outcome;
    expect(outcome.n).toBe(2);
    expect(outcome.verdict).toBe("undefined");
    const row = text(renderToStaticMarkup(<BackboneComparisonPanel panel={panel} hrefFor={href} />));
    expect(row).toContain(`Outcome not testable ${outcome.reason}`);
  });
});
