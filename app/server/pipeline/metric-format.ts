/**
 * How metric values are shown, shared by the run page and the CLI table: the SoCRATES metrics on
 * [0, 1] scales (IT, IE, IF, FI, CG) ×100 as the spec reports them, RL in turns, MI on its 1–5
 * scale, the ProMediate consensus deltas (CC, TLE, ME) as they are. No I/O, safe in the browser.
 */
export const PERCENT_METRICS: readonly string[] = ["IT", "IE", "IF", "FI", "CG"];

export const METRIC_LABELS: Record<string, string> = {
  IT: "Intervention timeliness",
  IE: "Intervention effectiveness",
  IF: "Intervention frequency",
  FI: "First intervention",
  CG: "Consensus gain",
  CC: "Consensus change",
  TLE: "Topic-level efficiency",
  RL: "Response latency (turns)",
  ME: "Mediator effectiveness",
  MI: "Mediator intelligence (1–5)",
};

/** The shown value, or "—" when the metric is undefined for its subject. */
export function formatMetricValue(metric: string, value: number | null): string {
  if (value === null) return "—";
  if (PERCENT_METRICS.includes(metric)) return (value * 100).toFixed(1);
  if (metric === "RL" || metric === "MI") return value.toFixed(2);
  return value.toFixed(3);
}

const PARAM_SYMBOLS: Record<string, string> = { s0: "s0", delta: "δ", W: "W", h: "h", wMax: "w max", tau: "τ", rlWindow: "RL window", meSpan: "ME span" };

/** "δ = 0.05 · W = 10": the parameters a set of values was computed with, each once. */
export function formatParams(paramSets: Record<string, unknown>[]): string {
  const seen = new Map<string, unknown>();
  for (const params of paramSets) for (const [key, value] of Object.entries(params)) if (!seen.has(key)) seen.set(key, value);
  return [...seen].map(([key, value]) => `${PARAM_SYMBOLS[key] ?? key} = ${String(value)}`).join(" · ");
}
