/** Number formats shared by the dashboard panels: fixed decimals, readable small p-values. */

const DASH = "—";

/** Correlations and alpha: three decimals, a true minus sign. */
export function formatCoefficient(value: number | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  const text = value.toFixed(3);
  return text.startsWith("-") ? `−${text.slice(1)}` : text;
}

/** p-values: three decimals from 0.001 up, scientific notation below (e.g. 4.2e−5). */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined) return DASH;
  if (p === 0) return "< 1e−300";
  if (p < 0.001) return p.toExponential(1).replace("e-", "e−");
  return p.toFixed(3);
}

export function formatCi(ci: readonly [number, number] | readonly number[] | null | undefined): string {
  if (!ci) return DASH;
  return `[${formatCoefficient(ci[0])}, ${formatCoefficient(ci[1])}]`;
}

/** A share as a whole percentage (one decimal below 10 %). */
export function formatPercent(share: number | null | undefined): string {
  if (share === null || share === undefined) return DASH;
  const pct = share * 100;
  return `${pct < 10 && pct > 0 ? pct.toFixed(1) : Math.round(pct)}%`;
}

/** Seconds as "42 s" or "3 min 05 s". */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return DASH;
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, "0")} s`;
}
