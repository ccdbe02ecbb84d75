/**
 * What every symbol and abbreviation on the research pages means, in a sentence or two, and the
 * heading of docs/metrics.md (or docs/metrics-emotion.md) that defines it. The glossary page
 * lists these; `Term` (app/components/Term.tsx) links each symbol on a page to its entry and
 * gives it the short text as its accessible description. The unit test checks every heading
 * exists and every registered metric and parameter has an entry.
 */
import { METRICS } from "./metrics/registry.ts";

type Doc = "docs/metrics.md" | "docs/metrics-emotion.md";

export interface GlossaryEntry {
  /** How pages name it: a metric id, a metric parameter key, or a short name for any other symbol. */
  key: string;
  /** As it is printed on the pages. */
  symbol: string;
  name: string;
  text: string;
  doc: Doc;
  /** The heading of `doc` that defines it, exactly as written there. */
  heading: string;
}

const DEFINITIONS = "The metrics, one by one";
const CONSTANTS = "Constants and their defaults";
const VALIDATION = "Human validation: alignment and agreement";

/** One sentence per registered metric; the name comes from its descriptor's label. */
const METRIC_TEXT: Record<(typeof METRICS)[number]["id"], { text: string; doc?: Doc; heading?: string }> = {
  IT: { text: "How soon the mediator speaks after consensus drops: 1 for the next turn, less the longer it waits." },
  IE: { text: "How much of the remaining gap to full consensus closes in the h turns after a mediator turn." },
  IF: { text: "Mediator turns per party turn." },
  FI: { text: "When the mediator first speaks, as a share of the run's turns." },
  CC: { text: "Group consensus G over the last turns minus G over the first turns." },
  TLE: { text: "Per topic, the change in consensus divided by the turns that mention the topic, averaged." },
  RL: { text: "Turns from a fall in group consensus G to the mediator's next turn." },
  ME: { text: "Slope of topic consensus after a mediator turn minus the slope before it." },
  MI: { text: "A judge model's 1–5 score of each intervention on four aspects, averaged." },
  CG: { text: "Final consensus with the mediator against the same run without one, as a share of the possible gain." },
  ER: { text: "How far negative emotion recovers after a mediator turn.", doc: "docs/metrics-emotion.md" },
  EF: { text: "How the parties feel at the end of the run.", doc: "docs/metrics-emotion.md" },
  EV: { text: "How much the parties' emotion swings from turn to turn.", doc: "docs/metrics-emotion.md" },
  EC: { text: "Correlation between the emotion series and consensus C[t].", doc: "docs/metrics-emotion.md" },
};

const metricEntries: GlossaryEntry[] = METRICS.map((m) => {
  const t = METRIC_TEXT[m.id];
  const doc = t.doc ?? "docs/metrics.md";
  return {
    key: m.id,
    symbol: m.id,
    name: m.label,
    text: t.text,
    doc,
    heading: t.heading ?? (doc === "docs/metrics.md" ? DEFINITIONS : "The metrics"),
  };
});

function entry(key: string, symbol: string, name: string, text: string, heading: string): GlossaryEntry {
  return { key, symbol, name, text, doc: "docs/metrics.md", heading };
}

/** The metric parameters, keyed as in `socrates metrics --params`. */
const paramEntries: GlossaryEntry[] = [
  entry("s0", "s0", "Starting score", "The 1–5 score every topic has before the judge first locates it.", CONSTANTS),
  entry("delta", "δ", "Drop threshold", "The least fall of C that counts as a drop event (IT).", CONSTANTS),
  entry(
    "W",
    "W",
    "Response window",
    "Turns within which the mediator must answer a drop for IT to count it.",
    CONSTANTS,
  ),
  entry("h", "h", "Effectiveness horizon", "Turns after a mediator turn at which IE reads consensus.", CONSTANTS),
  entry("wMax", "w max", "Largest CC window", "The most turns CC averages at each end of the run.", CONSTANTS),
  entry("tau", "τ", "Fall threshold", "The least fall of G that counts as a drop for RL.", CONSTANTS),
  entry("rlWindow", "RL window", "RL window", "Turns within which G must fall for RL to count a drop.", CONSTANTS),
  entry(
    "meSpan",
    "ME span",
    "ME span",
    "Turns on each side of a mediator turn that ME fits its slopes over.",
    CONSTANTS,
  ),
  entry("hE", "h_E", "Repair horizon", "Turns after a mediator turn at which ER reads emotion.", CONSTANTS),
  entry(
    "definitions",
    "definitions",
    "Which definitions",
    "spec: as the benchmark specifies; promediate-reference: as ProMediate's released code computes.",
    "ProMediate reference definitions",
  ),
];

/** Series, statistics and identifiers shown beside the metrics. */
const otherEntries: GlossaryEntry[] = [
  entry(
    "C[t]",
    "C[t]",
    "Consensus at turn t",
    "Mean over topics of each topic's latest judged 1–5 score, mapped to 0–1 (0–100 %).",
    "Trajectory and consensus C[t]",
  ),
  entry(
    "G[t]",
    "G[t]",
    "Group consensus at turn t",
    "The per-turn baseline: agreement of every pair of parties, averaged over pairs and topics.",
    "Per-turn baseline G[t]",
  ),
  entry("T", "T", "Turns", "The number of utterances in a run, party and mediator turns together.", DEFINITIONS),
  entry(
    "alpha",
    "α",
    "Krippendorff's alpha",
    "Agreement among annotators beyond chance: 1 perfect, 0 chance.",
    VALIDATION,
  ),
  entry(
    "r",
    "r",
    "Pearson r",
    "Correlation between the evaluator's scores and the experts' mean (−1 to 1).",
    VALIDATION,
  ),
  entry("rho", "ρ", "Spearman ρ", "Rank correlation between two orderings (−1 to 1).", VALIDATION),
  entry(
    "tau-b",
    "τ-b",
    "Kendall τ-b",
    "Rank correlation counting agreeing and disagreeing pairs, with ties.",
    VALIDATION,
  ),
  entry(
    "CI",
    "95% CI",
    "95% confidence interval",
    "The range that holds the true value in 95% of samples.",
    VALIDATION,
  ),
  entry("p", "p", "p-value", "How likely a correlation this strong is when there is none.", "Correlation p-values"),
  entry(
    "delta-r",
    "Δr",
    "Difference in r",
    "One evaluator's r minus another's, both against the same experts on the same units.",
    "Comparing two evaluators",
  ),
  entry(
    "williams-t",
    "Williams' t",
    "Williams' t",
    "A test of whether two correlations with a shared variable differ.",
    "Comparing two evaluators",
  ),
  entry("df", "df", "Degrees of freedom", "For Williams' t, n − 3.", "Comparing two evaluators"),
  entry("n", "n", "Count", "How many units (or runs, pairs) a figure is computed over.", VALIDATION),
  entry(
    "PPI",
    "PPI++",
    "Prediction-powered estimate",
    "A mediator's score on the experts' scale: the judge's mean on every run, corrected by the expert labels on some.",
    "Human-scale quantities",
  ),
  entry(
    "plan-hash",
    "plan hash",
    "Plan hash",
    "A short fingerprint of a benchmark plan's contents: the same plan always has the same hash.",
    "Definitions, as implemented",
  ),
  entry(
    "prompt-version",
    "prompt",
    "Prompt version",
    "A short hash of the prompt text that made a condition: a changed prompt gets a new one.",
    "Definitions, as implemented",
  ),
];

export const GLOSSARY: readonly GlossaryEntry[] = [...metricEntries, ...paramEntries, ...otherEntries];

const byKey = new Map(GLOSSARY.map((e) => [e.key, e]));

/** The entry a page names; throws on an unknown key, so a typo fails the page's test rather than showing nothing. */
export function glossaryEntry(key: string): GlossaryEntry {
  const found = byKey.get(key);
  if (!found) throw new Error(`no glossary entry "${key}"`);
  return found;
}

const bySymbol = new Map(GLOSSARY.map((e) => [e.symbol, e]));

/**
 * The key of the entry a header's text names, by key or by printed symbol; null when the glossary
 * does not know it (a stored metric no longer registered, an ordinary word).
 */
export function termKey(text: string): string | null {
  return (byKey.get(text) ?? bySymbol.get(text))?.key ?? null;
}

/** The element id of an entry on the glossary page. */
export function glossaryAnchor(key: string): string {
  return `term-${key.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
}

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** "docs/metrics.md#the-metrics-one-by-one". */
export function docsReference(e: GlossaryEntry): string {
  return `${e.doc}#${headingAnchor(e.heading)}`;
}
