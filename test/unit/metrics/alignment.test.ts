// Alignment with the expert reference at trajectory vs outcome level, and the per-unit value helpers.
// Expected Pearson values are from scipy.stats.pearsonr on the same numbers (and by hand for the outcome);
// p-values come from the stats module and are only checked to 1e-6 here (their accuracy is its job).
import { describe, expect, it } from "vitest";
import { alignment, type AlignmentUnit } from "../../../app/domain/metrics/alignment.ts";
import { baselineValueAt, evaluatorValueAt, meanOf } from "../../../app/domain/metrics/alignment-values.ts";
import * as metrics from "../../../app/domain/metrics/index.ts";

const unit = (
  runId: string,
  snippetIndex: number,
  isFinalSnippet: boolean,
  topicId: string,
  value: number | null,
  reference: number,
): AlignmentUnit => ({ runId, snippetIndex, isFinalSnippet, topicId, value, reference });

describe("alignment", () => {
  const units = [
    unit("r1", 0, false, "A", 2, 1.5),
    unit("r1", 0, false, "B", 3, 3),
    unit("r1", 1, true, "A", 4, 3.5),
    unit("r1", 1, true, "B", null, 2), // no value: left out at both levels
    unit("r2", 0, false, "A", 1, 1),
    unit("r2", 0, false, "B", 5, 4),
    unit("r2", 1, false, "A", 2, 2.5),
    unit("r2", 1, false, "B", 4, 4.5),
    unit("r2", 2, true, "A", 3, 2),
    unit("r2", 2, true, "B", 5, 4),
  ];

  it("uses all scored units at trajectory level and final-snippet units at outcome level", () => {
    const result = alignment(units);
    // pearsonr([2,3,4,1,5,2,4,3,5], [1.5,3,3.5,1,4,2.5,4.5,2,4]) = 0.8987456026100755, p = 0.0009838743290013978
    expect(result.trajectory.n).toBe(9);
    expect(result.trajectory.r).toBeCloseTo(0.8987456026100755, 9);
    expect(result.trajectory.p).toBeCloseTo(0.0009838743290013978, 6);
    // Outcome: x = [4, 3, 5], y = [3.5, 2, 4]. x̄ = 4, ȳ = 19/6;
    //   Σdx·dy = 0·(1/3) + (−1)(−7/6) + (1)(5/6) = 2; Σdx² = 2; Σdy² = 1/9 + 49/36 + 25/36 = 13/6
    //   r = 2 / √(2 · 13/6) = 2·√(3/13) = 0.9607689228305227 (scipy p = 0.178912375022067)
    expect(result.outcome.n).toBe(3);
    expect(result.outcome.r).toBeCloseTo(2 * Math.sqrt(3 / 13), 9);
    expect(result.outcome.p).toBeCloseTo(0.178912375022067, 6);
    expect(result).toMatchObject({ units: 10, finalSnippetUnits: 4, skippedNoValue: 1, outcomeSkippedNoValue: 1 });
  });

  it("rejects final-snippet flags that contradict the snippet order", () => {
    expect(() => alignment([unit("r1", 0, true, "A", 1, 1), unit("r1", 1, false, "A", 2, 2)])).toThrow(RangeError);
    expect(() => alignment([unit("r1", 0, true, "A", 1, 1), unit("r1", 1, true, "A", 2, 2)])).toThrow(RangeError);
  });

  it("is re-exported from the metrics index", () => {
    expect(metrics.alignment).toBe(alignment);
  });
});

describe("alignment value helpers", () => {
  it("reads the evaluator's carried-forward score at the snippet's last turn", () => {
    expect(evaluatorValueAt([1, 1, 3, 3, 4], 3)).toBe(3);
    expect(() => evaluatorValueAt([1, 1, 3], 0)).toThrow(RangeError);
    expect(() => evaluatorValueAt([1, 1, 3], 3)).toThrow(RangeError);
  });

  it("maps the per-turn baseline's mean pair agreement onto 1..5", () => {
    // At t_end = 2: mean(0.75, 0.25, 0.5) = 0.5 → 1 + 4·0.5 = 3
    expect(
      baselineValueAt(
        [
          [0, 0.5, 0.75],
          [0, 0.25, 0.25],
          [0, 1, 0.5],
        ],
        2,
      ),
    ).toBe(3);
  });

  it("averages annotator scores, with no value for an unscored unit", () => {
    expect(meanOf([4, 5, 3])).toBe(4);
    expect(meanOf([])).toBeNull();
  });
});
