/**
 * Labels faster than the study's minimum seconds on task (issue 28): who gave them and which,
 * the switch that leaves them out of the statistics (like the flagged-annotator switch), and the
 * minimum itself, a study setting.
 */
import { Form, Link } from "@remix-run/react";
import type { FastLabels } from "../../domain/validation/fast-labels.ts";
import { ScrollX } from "../ScrollX.tsx";

/** Rows of the label list shown at most; the rest are counted. */
const LIST_LIMIT = 50;

export interface FastLabelsPanelProps {
  fast: FastLabels;
  /** Whether they are left out right now (the switch offers the other state). */
  excluding: boolean;
  /** The page with the switch turned the other way (other parameters kept). */
  toggleHref: string;
  /** What leaving them out changes, in words: "agreement and alignment". */
  excludedFrom: string;
  names: Readonly<Record<string, string>>;
}

const seconds = (value: number | null) => (value === null ? "—" : `${value.toFixed(1)} s`);

export function FastLabelsPanel({ fast, excluding, toggleHref, excludedFrom, names }: FastLabelsPanelProps) {
  const count = fast.labels.length;
  const nameOf = (id: string) => names[id] ?? id;
  return (
    <div className="fast-labels" data-testid="fast-labels" data-excluding={excluding || undefined}>
      <h3>Labels faster than {fast.minSeconds} s on task</h3>
      {count === 0 ? (
        <p className="muted" data-testid="fast-labels-none">
          No label took less than {fast.minSeconds} s.
        </p>
      ) : (
        <>
          <p className="notice notice-warning">
            {count} label{count === 1 ? "" : "s"} from {fast.annotators.length} annotator
            {fast.annotators.length === 1 ? "" : "s"} took less than {fast.minSeconds} s: too quick to have been read.{" "}
            {excluding ? `They are left out of ${excludedFrom}. ` : ""}
            <Link to={toggleHref} data-testid="fast-labels-toggle">
              {excluding ? "Include them again" : `Exclude them from ${excludedFrom}`}
            </Link>
          </p>
          <FastLabelList fast={fast} nameOf={nameOf} />
        </>
      )}
      <Form method="post" className="inline-form" data-testid="min-seconds-form">
        <input type="hidden" name="intent" value="min-seconds" />
        <label>
          Minimum seconds on task{" "}
          <input
            key={fast.minSeconds}
            type="number"
            name="minSecondsOnTask"
            min={0}
            max={3600}
            step="any"
            defaultValue={fast.minSeconds}
            style={{ width: "6em" }}
          />
        </label>{" "}
        <button type="submit" className="button-secondary">
          Set
        </button>
      </Form>
    </div>
  );
}

function FastLabelList({ fast, nameOf }: { fast: FastLabels; nameOf: (id: string) => string }) {
  const shown = fast.labels.slice(0, LIST_LIMIT);
  return (
    <ScrollX label="Fast labels">
      <table className="data-table dash-table" data-testid="fast-labels-table">
        <thead>
          <tr>
            <th>Annotator</th>
            <th className="num">Item</th>
            <th className="num">Seconds on task</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((label) => (
            <tr key={label.labelId} data-label={label.labelId} data-annotator={label.annotatorId}>
              <td>{nameOf(label.annotatorId)}</td>
              <td className="num">{label.itemId}</td>
              <td className="num">{seconds(label.secondsOnTask)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {fast.labels.length > shown.length ? (
        <p className="muted">… and {fast.labels.length - shown.length} more.</p>
      ) : null}
    </ScrollX>
  );
}
