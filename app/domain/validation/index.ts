/** Validation analytics for the study dashboard: pure functions over label and item rows. */
export * from "./types.ts";
export { median } from "./rows.ts";
export * from "./sampling.ts";
export * from "./consensus-agreement.ts";
export * from "./alignment-table.ts";
export * from "./trend.ts";
export * from "./gold.ts";
export * from "./progress.ts";
export * from "./ab-summary.ts";
export * from "./agreement-summary.ts";
export * from "./gold-items.ts";
export * from "./backbone-comparison.ts";
export * from "./fast-labels.ts";
