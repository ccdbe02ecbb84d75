/**
 * The study dashboard as the page shows it: figures only, never the full rating matrix, with
 * excluded annotators by name.
 */
import { summarizeAgreement } from "../../domain/validation/index.ts";
import type { Db } from "../db.server.ts";
import { studyDashboard } from "./dashboard.server.ts";

export function studyDashboardView(db: Db, studyId: number, options: { excludeFlagged: boolean }) {
  const d = studyDashboard(db, studyId, options);
  const named = <T extends { excluded: string[] }>(summary: T): T => ({ ...summary, excluded: summary.excluded.map((id) => d.names[id] ?? id) });
  const common = { study: d.study, names: d.names, progress: d.progress, gold: d.gold, flagged: d.flagged, excludeFlagged: d.excludeFlagged };
  if (d.kind === "ab-reactiveness") {
    // Fidelity follows the exclusion switch, like alignment does for consensus studies.
    const { fidelity, overall, unlabelledPairs } = options.excludeFlagged && d.abWithoutFlagged ? d.abWithoutFlagged : d.ab;
    return {
      ...common,
      kind: "ab-reactiveness" as const,
      agreement: named(summarizeAgreement(d.ab)),
      agreementWithoutFlagged: d.abWithoutFlagged ? named(summarizeAgreement(d.abWithoutFlagged)) : null,
      fidelity: { fidelity, overall, unlabelledPairs },
      alignment: null,
      trend: null,
    };
  }
  return {
    ...common,
    kind: "consensus-snippet" as const,
    agreement: named(summarizeAgreement(d.agreement)),
    agreementWithoutFlagged: d.agreementWithoutFlagged ? named(summarizeAgreement(d.agreementWithoutFlagged)) : null,
    fidelity: null,
    alignment: d.alignment,
    trend: d.trend,
  };
}
