/**
 * The study dashboard's stopping rule (issue 33): per mediator the current 95% interval of its
 * expert-scale score, how many more completely labelled runs would narrow it to the target the
 * researcher sets here, and for an active study the log of the runs drawn so far.
 */
import { Form } from "@remix-run/react";
import { ScrollX } from "../ScrollX.tsx";
import type { DrawLogRow, StoppingPanel } from "../../domain/estimation/stopping-panel.ts";

const fixed = (x: number, digits = 3) => x.toFixed(digits);

const SOURCE_WORDS = {
  active:
    "Active estimate: the judge's score on every run in the study's population, corrected by the expert labels on " +
    "the runs drawn so far, each weighted by one over the chance it had of being drawn.",
  ppi: "PPI++: the judge's score on every run of the benchmark plan, corrected by this study's expert labels.",
  human: "Experts only: the mean over this study's completely labelled runs (no judge to lean on).",
} as const;

function TargetForm({ target }: { target: number }) {
  return (
    <Form method="post" className="target-form" data-testid="target-half-width-form">
      <input type="hidden" name="intent" value="target-half-width" />
      <label>
        Target half-width (0–1 scale){" "}
        <input
          key={target}
          type="number"
          name="targetHalfWidth"
          min={0.001}
          max={1}
          step="any"
          defaultValue={target}
          style={{ width: "6em" }}
        />
      </label>
      <button type="submit" className="button-secondary">
        Set target
      </button>
    </Form>
  );
}

function DrawLog({ draws }: { draws: DrawLogRow[] }) {
  return (
    <ScrollX label="Runs drawn">
      <table className="data-table dash-table draw-log" data-testid="draw-log">
        <caption>Runs drawn, in order (π: the chance each had of being drawn by now)</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Run</th>
            <th scope="col">Stratum (mediator)</th>
            <th scope="col">Size p</th>
            <th scope="col">π now</th>
            <th scope="col">In the estimate</th>
          </tr>
        </thead>
        <tbody>
          {draws.map((d) => (
            <tr key={d.runId}>
              <td className="num">{d.position}</td>
              <td>{d.runId}</td>
              <td>{d.mediator}</td>
              <td className="num">{fixed(d.size)}</td>
              <td className="num">{fixed(d.pi)}</td>
              <td>{d.inPrefix ? "yes" : "not yet"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollX>
  );
}

export function StoppingRulePanel({ panel }: { panel: StoppingPanel }) {
  const active = panel.active;
  return (
    <section className="dash-section" data-testid="stopping-rule">
      <h2>When to stop labelling</h2>
      <p className="active-help">
        Each row estimates a mediator&apos;s mean score on the experts&apos; 0–1 scale with a 95% interval; the
        half-width is how far the true value may plausibly lie from the estimate. &quot;Further runs&quot; is how many
        more completely labelled runs would bring the half-width to your target, if the interval keeps narrowing with
        the square root of the labels. Stop when every mediator you care about shows 0.
      </p>
      <TargetForm target={panel.target} />
      {panel.source ? (
        <p className="active-help" data-testid="stopping-source">
          {SOURCE_WORDS[panel.source]}
          {panel.planName ? ` Plan: ${panel.planName}.` : ""}
        </p>
      ) : null}
      {panel.empty ? (
        <p className="empty-state" data-testid="stopping-empty">
          {panel.empty}
        </p>
      ) : (
        <ScrollX label="Estimates and labels to the target">
          <table className="data-table dash-table stopping-rule" data-testid="stopping-table">
            <thead>
              <tr>
                <th scope="col">Mediator</th>
                <th scope="col">Quantity</th>
                <th scope="col">Estimate</th>
                <th scope="col">95% CI</th>
                <th scope="col">Half-width</th>
                <th scope="col">Labelled runs</th>
                <th scope="col">Further runs to ±{panel.target}</th>
              </tr>
            </thead>
            <tbody>
              {panel.rows.map((r) => (
                <tr key={`${r.quantity}:${r.mediator}`} data-mediator={r.mediator} data-quantity={r.quantity}>
                  <td>{r.mediator}</td>
                  <td>{r.quantity}</td>
                  <td className="num">{r.estimate ? fixed(r.estimate.estimate) : "—"}</td>
                  <td className="num">
                    {r.estimate ? `${fixed(r.estimate.lower)} to ${fixed(r.estimate.upper)}` : "needs 2 labelled runs"}
                  </td>
                  <td className="num">{r.estimate ? `±${fixed(r.estimate.halfWidth)}` : "—"}</td>
                  <td className="num">{r.estimate ? r.estimate.labelled : 0}</td>
                  <td className={r.further === 0 ? "num reached" : "num"} data-testid="further-labels">
                    {r.further === null ? "—" : r.further === 0 ? "0 (reached)" : r.further}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      )}
      {active ? (
        <>
          <p className="active-help" data-testid="draw-summary">
            Judge {active.judges.join(" and ")}. {active.drawn} of {active.population} runs drawn
            {active.budget !== null ? ` (budget ${active.budget})` : ""}.{" "}
            {active.leftOut > 0
              ? `${active.leftOut} drawn run${active.leftOut === 1 ? " waits" : "s wait"} for labels (or for an ` +
                "earlier run of its mediator) and stays out of the estimate until then."
              : "Every drawn run with complete labels is in the estimate."}
          </p>
          {active.draws.length ? <DrawLog draws={active.draws} /> : null}
        </>
      ) : null}
    </section>
  );
}
