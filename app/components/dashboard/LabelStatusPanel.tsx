/**
 * Stored labels by status (counted / pending / surplus), what each means, and the switch that lets surplus labels
 * count.
 */
import { Form } from "@remix-run/react";
import type { LabelStatus } from "../../domain/label-status.ts";
import { ScrollX } from "../ScrollX.tsx";

const ROWS: { status: LabelStatus; name: string; meaning: string }[] = [
  {
    status: "counted",
    name: "Counted",
    meaning: "from a confirmed annotator, within the item's labels per item; the statistics use these",
  },
  {
    status: "pending",
    name: "Pending",
    meaning:
      "from a crowd worker whose work the platform has not confirmed yet (MTurk: until mturk sync or a results file lists the assignment; Prolific: until its submissions export is imported); left out of every statistic",
  },
  {
    status: "surplus",
    name: "Surplus",
    meaning:
      "confirmed, but the item already had its labels per item counted; kept, and left out of the statistics unless counted below",
  },
];

export interface LabelStatusPanelProps {
  counts: Record<LabelStatus, number>;
  labelsPerItem: number;
  countSurplus: boolean;
}

export function LabelStatusPanel({ counts, labelsPerItem, countSurplus }: LabelStatusPanelProps) {
  return (
    <>
      <ScrollX label="Label status">
        <table className="data-table dash-table" data-testid="label-status-table">
          <thead>
            <tr>
              <th>Status</th>
              <th className="num">Labels</th>
              <th>Meaning</th>
            </tr>
          </thead>
          <tbody>
            {ROWS.map((row) => (
              <tr key={row.status} data-status={row.status}>
                <td>{row.name}</td>
                <td className="num">{counts[row.status]}</td>
                <td className="muted">{row.meaning}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
      <p className="dash-note">
        At most {labelsPerItem} labels per item are counted, whatever way they came in (first confirmed, first counted).
        Agreement, alignment, fidelity and progress use counted labels
        {countSurplus ? " and, as this study is set, surplus ones" : " only"}; exports carry every label with its
        status.
      </p>
      <Form method="post" className="inline-form" data-testid="count-surplus-form">
        <input type="hidden" name="intent" value="count-surplus" />
        <input type="hidden" name="countSurplus" value={countSurplus ? "false" : "true"} />
        <span data-testid="count-surplus-state">
          Surplus labels are {countSurplus ? "counted in the statistics" : "left out of the statistics"}.
        </span>{" "}
        <button type="submit" className="button-secondary">
          {countSurplus ? "Leave surplus labels out" : "Count surplus labels too"}
        </button>
      </Form>
    </>
  );
}
