/**
 * Inter-annotator agreement: Krippendorff's alpha per level with its bootstrap 95% CI, and the
 * same without the flagged annotators side by side when any were left out.
 */
import { TASK_TYPES } from "../../task-types/registry.ts";
import type { AgreementSummary, LevelFigures } from "../../domain/validation/index.ts";
import { formatCi, formatCoefficient } from "./format.ts";
import { ScrollX } from "../ScrollX.tsx";
import { Term } from "../Term.tsx";

interface Props {
  agreement: AgreementSummary;
  /** The same figures computed without the flagged annotators, when exclusions apply. */
  withoutFlagged?: AgreementSummary | null;
}

function AlphaCells({ figures }: { figures: LevelFigures | undefined }) {
  if (!figures) return <td colSpan={2}>—</td>;
  if (figures.alpha === null) {
    return (
      <td colSpan={2}>
        — <span className="reason">{figures.reason ?? "undefined"}</span>
      </td>
    );
  }
  return (
    <>
      <td className="num">
        <strong>{formatCoefficient(figures.alpha)}</strong>
      </td>
      <td className="num">{formatCi(figures.ci)}</td>
    </>
  );
}

export function AgreementPanel({ agreement, withoutFlagged }: Props) {
  if (agreement.raters === 0) {
    return <p className="empty-state">No labels yet — agreement needs at least two annotators on the same items.</p>;
  }
  const compare = withoutFlagged && withoutFlagged.excluded.length > 0 ? withoutFlagged : null;
  const boot = agreement.levels[0];
  return (
    <section className="dash-panel" data-testid="agreement-panel">
      <ScrollX label="Agreement between annotators">
        <table className="data-table">
          <thead>
            <tr>
              <th rowSpan={compare ? 2 : 1}>Level</th>
              {compare ? (
                <>
                  <th colSpan={2}>All annotators</th>
                  <th colSpan={2}>Without flagged</th>
                </>
              ) : (
                <>
                  <th className="num">
                    <Term k="alpha" />
                  </th>
                  <th className="num">
                    <Term k="CI" />
                  </th>
                </>
              )}
            </tr>
            {compare ? (
              <tr>
                <th className="num">
                  <Term k="alpha" />
                </th>
                <th className="num">
                  <Term k="CI" />
                </th>
                <th className="num">
                  <Term k="alpha" />
                </th>
                <th className="num">
                  <Term k="CI" />
                </th>
              </tr>
            ) : null}
          </thead>
          <tbody>
            {agreement.levels.map((figures) => (
              <tr key={figures.level}>
                <td>{figures.level}</td>
                <AlphaCells figures={figures} />
                {compare ? <AlphaCells figures={compare.levels.find((l) => l.level === figures.level)} /> : null}
              </tr>
            ))}
            <tr className="muted">
              <td>raters · units (pairable)</td>
              <td colSpan={2} className="num">
                {agreement.raters} · {agreement.units} ({agreement.pairableUnits})
              </td>
              {compare ? (
                <td colSpan={2} className="num">
                  {compare.raters} · {compare.units} ({compare.pairableUnits})
                </td>
              ) : null}
            </tr>
          </tbody>
        </table>
      </ScrollX>
      <p className="dash-note">
        {TASK_TYPES[agreement.kind].dashboard.agreementUnits(agreement.pool)}
        CI: bootstrap over units, {boot.draws} draws, seed {boot.seed}
        {agreement.levels.some((l) => l.undefinedDraws > 0)
          ? `; draws where α is undefined are left out (${agreement.levels.map((l) => `${l.level} ${l.undefinedDraws}`).join(", ")})`
          : ""}
        .{compare ? ` Without flagged: ${compare.excluded.join(", ")} left out.` : ""}
      </p>
    </section>
  );
}
