/** The study dashboard's display components; props are the validation modules' outputs. */
export { ProgressPanel } from "./ProgressPanel.tsx";
export { AgreementPanel } from "./AgreementPanel.tsx";
export { AlignmentTable } from "./AlignmentTable.tsx";
export { DashboardChart, TrendChart } from "./TrendChart.tsx";
export { BackboneComparisonPanel } from "./BackboneComparisonPanel.tsx";
export { AnnotatorTable } from "./AnnotatorTable.tsx";
export { FidelityTable } from "./FidelityTable.tsx";
export { TypeFiguresSection } from "./TypeFiguresSection.tsx";
export { LabelStatusPanel } from "./LabelStatusPanel.tsx";
export { FastLabelsPanel } from "./FastLabelsPanel.tsx";
export * from "./format.ts";
