/**
 * The curation rules a written scenario must meet on top of the bundle's scenario checks
 * (SoCRATES §3.2): two parties, at most four topics with small lettered option sets, every
 * stance naming one of its topic's options, stances that diverge, at least one emotionally
 * provocative topic, no real name or date carried over from the seed, and weights that are
 * positive whole numbers summing to 10 and never all equal. Each problem names its rule, so a
 * repair request and a rejection reason say exactly what was wrong.
 */
import { scenarioSchema, type Domain, type Scenario } from "../bundle.ts";
import type { SeedReport } from "./seed.ts";
import { assembleScenario, stanceOption, type WeightsReply, type WriterReply } from "./writer.ts";

export const CURATION_RULES = [
  "two-parties",
  "at-most-four-topics",
  "small-option-sets",
  "stance-among-options",
  "diverging-stances",
  "provocative-topic",
  "fictional-names",
  "fictional-dates",
  "weights-for-every-topic",
  "weights-sum-to-10",
  "weights-not-all-equal",
  "scenario-checks",
] as const;
export type CurationRule = (typeof CURATION_RULES)[number];

export interface CurationProblem {
  rule: CurationRule;
  message: string;
}

/** Options per topic: small discrete sets, as the paper asks. */
export const MAX_OPTIONS = 4;
/** Curation's own limit: the bundle accepts up to MAX_SCENARIO_TOPICS (imported cases may have more). */
const MAX_TOPICS = 4;

/** "rule x: message; rule y: message" — the text of a repair request or a rejection reason. */
export function describeProblems(problems: readonly { rule: string; message: string }[]): string {
  return problems.map((p) => `rule ${p.rule}: ${p.message}`).join("; ");
}

/** Seed dates long enough to be identifying (a bare year or "May" would match anywhere). */
function identifying(values: string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter((v) => v.length >= 5))];
}

/**
 * Seed party names that are proper names: two or more capitalised words ("Northwind Regional
 * Health"). A generic description such as "Local residents" may rightly appear in a scenario.
 */
function properNames(values: string[]): string[] {
  return identifying(values).filter((v) => v.split(/\s+/).filter((w) => /^[A-Z]/.test(w)).length >= 2);
}

function scenarioText(reply: WriterReply): string {
  const parts = [reply.title, reply.background];
  for (const t of reply.topics) parts.push(t.name, t.description, ...t.options.map((o) => o.description));
  for (const p of reply.parties) parts.push(p.name, p.role, p.relation, ...Object.values(p.preferences));
  return parts.join("\n").toLowerCase();
}

function checkTopicsAndStances(reply: WriterReply, problems: CurationProblem[]): void {
  const add = (rule: CurationRule, message: string) => problems.push({ rule, message });
  if (reply.parties.length !== 2)
    add("two-parties", `a curated scenario has exactly 2 parties, got ${reply.parties.length}`);
  if (reply.topics.length > MAX_TOPICS || reply.topics.length === 0)
    add("at-most-four-topics", `one to ${MAX_TOPICS} topics, got ${reply.topics.length}`);
  for (const t of reply.topics) {
    if (t.options.length > MAX_OPTIONS)
      add("small-option-sets", `topic ${t.id} has ${t.options.length} options; use 2 to ${MAX_OPTIONS}`);
  }
  const chosen = reply.parties.map((p) =>
    reply.topics.map((t) => {
      const stance = p.preferences[t.id];
      if (stance === undefined) return null; // the scenario checks report the missing stance
      const letter = stanceOption(stance);
      if (!letter || !t.options.some((o) => o.label === letter)) {
        const labels = t.options.map((o) => o.label).join(", ");
        add(
          "stance-among-options",
          `${p.id}'s stance on ${t.id} must open with "Option X:" where X is one of ${labels}; got ${JSON.stringify(stance.slice(0, 60))}`,
        );
      }
      return letter;
    }),
  );
  if (reply.parties.length === 2 && reply.topics.length > 0) {
    const differ = reply.topics.filter((_, i) => chosen[0][i] !== null && chosen[0][i] !== chosen[1][i]).length;
    if (differ * 2 < reply.topics.length) {
      add(
        "diverging-stances",
        `the parties want different options on only ${differ} of ${reply.topics.length} topics; they must differ on at least half`,
      );
    }
  }
  const topicIds = reply.topics.map((t) => t.id);
  const provocative = reply.provocative_topics.filter((id) => topicIds.includes(id));
  if (provocative.length === 0)
    add("provocative-topic", "mark at least one topic id in provocative_topics as emotionally provocative");
}

function checkFictional(reply: WriterReply, seed: SeedReport, problems: CurationProblem[]): void {
  const text = scenarioText(reply).toLowerCase();
  problems.push(...fictionalNameProblems(text, seed));
  for (const date of identifying(seed.timeline.map((e) => e.date))) {
    if (text.includes(date.toLowerCase()))
      problems.push({
        rule: "fictional-dates",
        message: `the real date "${date}" appears; replace it with a fictional one`,
      });
  }
}

/** The seed's real party names (proper names only) that appear in a written text. */
export function fictionalNameProblems(written: string, seed: SeedReport): CurationProblem[] {
  const text = written.toLowerCase();
  const problems: CurationProblem[] = [];
  for (const name of properNames(seed.parties.map((p) => p.name))) {
    if (text.includes(name.toLowerCase()))
      problems.push({
        rule: "fictional-names",
        message: `the real name "${name}" appears; replace it with a fictional one`,
      });
  }
  return problems;
}

/** Valid stand-in weights (not all equal, summing to 10) so the body can be checked before the weights call. */
function placeholderWeights(reply: WriterReply): WeightsReply {
  const ids = reply.topics.map((t) => t.id);
  const own = Object.fromEntries(ids.map((id, i) => [id, i === 0 ? 10 - (ids.length - 1) : 1]));
  return { weights: Object.fromEntries(reply.parties.map((p) => [p.id, own])) };
}

/** The first reply (scenario without weights) against the curation rules and the bundle's scenario checks. */
export function checkWriterReply(reply: WriterReply, seed: SeedReport, domain: Domain): CurationProblem[] {
  const problems: CurationProblem[] = [];
  checkTopicsAndStances(reply, problems);
  checkFictional(reply, seed, problems);
  const body = assembleScenario({
    id: "candidate",
    domain,
    seedTitle: seed.title,
    reply,
    weights: placeholderWeights(reply),
  });
  // Topic and party counts are the curation rules' to report; the rest is what an import would say.
  const counted = (p: CurationProblem) => /^(topics|parties): /.test(p.message);
  problems.push(...checkAssembled(body).filter((p) => !counted(p)));
  return problems;
}

/** The second reply (weights) against the scenario it weighs. */
export function checkWeightsReply(weights: WeightsReply, reply: WriterReply): CurationProblem[] {
  const problems: CurationProblem[] = [];
  const topicIds = reply.topics.map((t) => t.id);
  for (const party of reply.parties) {
    const own = weights.weights[party.id] ?? {};
    const missing = topicIds.filter((id) => !(id in own));
    const unknown = Object.keys(own).filter((id) => !topicIds.includes(id));
    if (missing.length > 0 || unknown.length > 0) {
      const parts = [
        missing.length > 0 ? `missing ${missing.join(", ")}` : "",
        unknown.length > 0 ? `unknown ${unknown.join(", ")}` : "",
      ];
      problems.push({
        rule: "weights-for-every-topic",
        message: `${party.id} needs one weight per topic (${topicIds.join(", ")}): ${parts.filter(Boolean).join("; ")}`,
      });
    }
    const values = Object.values(own);
    const bad = values.filter((w) => !Number.isInteger(w) || w < 1);
    if (bad.length > 0)
      problems.push({
        rule: "weights-sum-to-10",
        message: `${party.id}'s weights must be positive whole numbers, got ${bad.join(", ")}`,
      });
    const sum = values.reduce((a, b) => a + b, 0);
    if (sum !== 10)
      problems.push({ rule: "weights-sum-to-10", message: `${party.id}'s weights sum to ${sum}, not 10` });
    if (values.length > 1 && values.every((w) => w === values[0])) {
      problems.push({
        rule: "weights-not-all-equal",
        message: `${party.id}'s weights are all ${values[0]}; they must set a priority order`,
      });
    }
  }
  return problems;
}

/** The assembled scenario against the bundle's own checks (what an import would say). */
export function checkAssembled(scenario: Scenario): CurationProblem[] {
  const parsed = scenarioSchema.safeParse(scenario);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => ({
    rule: "scenario-checks",
    message: `${i.path.join(".") || "scenario"}: ${i.message}`,
  }));
}
