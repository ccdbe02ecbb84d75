/** The shapes the scenario and run pages read (built by app/server/catalog.server.ts); types only, for components. */
import type { RenderedChart } from "./charts/chart-data.ts";
import type { EvaluationMethod, TopicSeries } from "./series.ts";

export interface RunListItem {
  id: string;
  scenarioId: string;
  scenarioTitle: string;
  domain: string;
  axis: string;
  variant: string;
  mediated: boolean;
  mediatorBackbone: string | null;
  simulatorBackbone: string;
  outcome: string;
  totalTurns: number;
  mediatorTurns: number;
  evaluations: number;
}

export interface EvaluationView {
  id: string;
  method: EvaluationMethod;
  backbone: string;
  errors: { topic_id?: string; message: string }[];
  consensus: number[];
  topics: TopicSeries[];
  /** The judge's reason at each located turn, per topic (topic-localized only). */
  reasons: Record<string, Record<number, string>>;
}

export interface MetricView {
  metric: string;
  value: number | null;
  detail: Record<string, unknown>;
  params: Record<string, unknown>;
  computedAt: string;
}

export interface RunMetrics {
  /** Metrics of the run itself (IF, FI) and of its judges (MI, one per backbone, named in detail). */
  run: MetricView[];
  /** Metrics computed from each evaluation, by evaluation id. */
  evaluations: Record<string, MetricView[]>;
  /** Metrics of the matched pair the run belongs to (CG, one per evaluator backbone, named in detail). */
  pair: { id: string; rows: MetricView[] } | null;
  computedAt: string | null;
}

/** One emotion trajectory of a run as the run page shows it: its server-drawn chart and who the judge failed on. */
export interface EmotionChartView {
  /** "self", or the judge's evaluation id. */
  key: string;
  /** "self-report" or "judge <backbone>". */
  label: string;
  /** Drawn on the server, with its data for the table and CSV. */
  chart: RenderedChart;
  /** Names of the parties the judge failed on (no line drawn for them). */
  failedParties: string[];
}
