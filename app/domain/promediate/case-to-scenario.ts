/**
 * One ProMediate case file -> one scenario and its general condition (docs/promediate.md has the
 * mapping table). Pure: the caller reads the files, hashes them and reports the problems by file.
 * Every problem is collected with its JSON path; a case with any problem yields no scenario.
 */
import type { z } from "zod";
import {
  MAX_SCENARIO_TOPICS,
  scenarioSchema,
  topicSchema,
  type Condition,
  type Party,
  type Scenario,
  type Topic,
} from "../bundle.ts";
import { formatJsonPath } from "../judge-problems.ts";
import { conditionId } from "../probing/conditions.ts";
import { caseBackground, caseDomain } from "./case-domain.ts";
import {
  PROMEDIATE_MEDIATOR,
  promediateCaseSchema,
  type CaseProblem,
  type PromediateCase,
  type PromediateTopics,
} from "./case-schema.ts";
import { issueDescription, issueTitle, LABEL_STYLE_NAMES, numberedBlocks, parseOptions } from "./case-options.ts";
import { briefRole, opinionsSection, partyRelation, significantWords, splitOpinions } from "./case-parties.ts";
import { partyCode } from "./party-names.ts";
import { rankTopics, weightsFromRanking, type RankRule } from "./case-weights.ts";

/** The fields the importer works out by a rule rather than reading them from the case. */
export const DERIVED_FIELDS = ["title", "domain", "parties[].relation", "parties[].weights"] as const;

export interface CaseInput {
  /** The case's name: its file name without .json ("williams"). */
  name: string;
  /** The file name recorded in the provenance ("williams.json"). */
  file: string;
  sha256: string;
  /** The parsed JSON of the case file. */
  json: unknown;
  /** topics.json's content when given or found; undefined when there is none. */
  topics?: PromediateTopics;
}

export interface CaseResult {
  scenario?: Scenario;
  condition?: Condition;
  /** Per party code, which ranking rule its weights came from. */
  weightRules: Record<string, RankRule>;
  problems: CaseProblem[];
  warnings: CaseProblem[];
}

export function promediateScenarioId(caseName: string): string {
  return `promediate-${caseName}`;
}

function zodProblems(error: z.ZodError, prefix: (string | number)[] = []): CaseProblem[] {
  return error.issues.map((i) => ({ path: formatJsonPath([...prefix, ...i.path]), message: i.message }));
}

/** The case's topic names: its own list, else its entry in topics.json. */
function topicNames(input: CaseInput, c: PromediateCase, problems: CaseProblem[]): string[] | null {
  if (c.topics) return c.topics;
  const listed = input.topics?.[input.name];
  if (listed) return listed;
  problems.push({
    path: "$.topics",
    message: input.topics
      ? `the case has no topic list and topics.json has no entry "${input.name}"`
      : "the case has no topic list and no topics.json was given (--topics) or found beside it",
  });
  return null;
}

function buildTopics(c: PromediateCase, names: string[], problems: CaseProblem[]): Topic[] {
  if (names.length > MAX_SCENARIO_TOPICS)
    problems.push({
      path: "$.topics",
      message: `${names.length} topics; a scenario has at most ${MAX_SCENARIO_TOPICS}`,
    });
  const issues = numberedBlocks(c.issues);
  const optionBlocks = numberedBlocks(c.options);
  const count = (what: string, n: number) =>
    `${n} numbered ${what} (1., 2., …) for ${names.length} topics (${names.map((t) => `"${t}"`).join(", ")})`;
  if (issues.length !== names.length) problems.push({ path: "$.issues", message: count("issues", issues.length) });
  if (optionBlocks.length !== names.length)
    problems.push({ path: "$.options", message: count("option lists", optionBlocks.length) });
  if (problems.length > 0) return [];
  return names.map((name, i) => {
    const parsed = parseOptions(optionBlocks[i].body, i + 1);
    if (!parsed) {
      const styles = LABEL_STYLE_NAMES.join(", ");
      const title = issueTitle(optionBlocks[i].heading);
      problems.push({
        path: "$.options",
        message: `issue ${i + 1} ("${title}"): no two options labelled in order in a known style (${styles})`,
      });
    }
    const description = [issueDescription(issues[i]), parsed?.preamble ?? ""].filter((s) => s !== "").join(" ");
    const options = (parsed?.descriptions ?? []).map((d, k) => ({
      label: String.fromCharCode(65 + k),
      description: d,
    }));
    const topic = { id: `T${i + 1}`, name, description, options };
    const checked = parsed ? topicSchema.safeParse(topic) : null;
    if (checked && !checked.success)
      problems.push(
        ...checked.error.issues.map((p) => ({ path: "$.options", message: `issue ${i + 1}: ${p.message}` })),
      );
    return topic;
  });
}

/**
 * The party names: `names` without the mediator. Every `config` speaker must have a brief and
 * every brief a `config` entry; a name spelled differently in the two only by letter case is the
 * same party (a warning), the `names` spelling kept.
 */
function partyNames(c: PromediateCase, problems: CaseProblem[], warnings: CaseProblem[]): string[] {
  const names = Object.keys(c.names).filter((n) => n !== PROMEDIATE_MEDIATOR);
  const configured = Object.keys(c.config).filter((n) => n !== PROMEDIATE_MEDIATOR);
  for (const key of configured) {
    if (names.includes(key)) continue;
    const same = names.find((n) => n.toLowerCase() === key.toLowerCase());
    if (same)
      warnings.push({
        path: formatJsonPath(["config", key]),
        message: `spelled "${same}" in $.names; taken as the same party, named "${same}"`,
      });
    else problems.push({ path: formatJsonPath(["config", key]), message: `"${key}" has no brief in $.names` });
  }
  for (const name of names) {
    if (!configured.some((k) => k.toLowerCase() === name.toLowerCase()))
      problems.push({ path: formatJsonPath(["names", name]), message: `"${name}" has no entry in $.config` });
  }
  const codes = names.map(partyCode);
  codes.forEach((code, i) => {
    if (!/^[A-Z]/.test(code))
      problems.push({
        path: formatJsonPath(["names", names[i]]),
        message: `party code "${code}" must start with a letter`,
      });
    else if (codes.indexOf(code) !== i)
      problems.push({
        path: formatJsonPath(["names", names[i]]),
        message: `party code "${code}" is also the code of "${names[codes.indexOf(code)]}"`,
      });
  });
  return names;
}

interface BuiltParty {
  party: Party;
  rule: RankRule;
}

function buildParty(c: PromediateCase, name: string, all: string[], topics: Topic[], problems: CaseProblem[]) {
  const path = formatJsonPath(["names", name]);
  const brief = c.names[name];
  const role = briefRole(brief);
  if (!role) problems.push({ path, message: 'the brief has no "Role:" line' });
  const opinions = opinionsSection(brief);
  if (opinions === null) {
    problems.push({ path, message: 'the brief has no "## Opinions" section' });
    return null;
  }
  const words = topics.map((t) => significantWords(t.name));
  const split = splitOpinions(opinions, words);
  if ("missing" in split) {
    const t = topics[split.missing];
    problems.push({ path, message: `its opinions have no numbered heading for topic ${t.id} ("${t.name}")` });
    return null;
  }
  const empty = split.sections.indexOf("");
  if (empty >= 0) {
    problems.push({ path, message: `its opinions say nothing under the heading of topic ${topics[empty].id}` });
    return null;
  }
  if (!role) return null;
  const ranking = rankTopics(split.preamble, split.sections);
  const weights = weightsFromRanking(ranking);
  const party: Party = {
    id: partyCode(name),
    name,
    role,
    relation: partyRelation(
      brief,
      all.filter((n) => n !== name),
    ),
    preferences: Object.fromEntries(topics.map((t, i) => [t.id, split.sections[i]])),
    weights: Object.fromEntries(topics.map((t, i) => [t.id, weights[i]])),
  };
  return { party, rule: ranking.rule } satisfies BuiltParty;
}

function provenanceNote(input: CaseInput, c: PromediateCase): string {
  const from = c.topics ? "the case's own topic list" : "topics.json";
  return (
    `ProMediate case "${input.name}" (microsoft/ProMediate-Eval, cases/${input.file}); topics from ${from}; ` +
    "title, domain, relations and weights derived by the rules in docs/promediate.md"
  );
}

/** Builds the scenario and general condition of one case, or says every problem with it. */
export function caseToScenario(input: CaseInput): CaseResult {
  const problems: CaseProblem[] = [];
  const warnings: CaseProblem[] = [];
  const result: CaseResult = { weightRules: {}, problems, warnings };
  const parsed = promediateCaseSchema.safeParse(input.json);
  if (!parsed.success) {
    problems.push(...zodProblems(parsed.error));
    return result;
  }
  const c = parsed.data;
  const names = topicNames(input, c, problems);
  const topics = names ? buildTopics(c, names, problems) : [];
  const parties = partyNames(c, problems, warnings);
  if (problems.length > 0) return result;
  const built = parties.map((name) => buildParty(c, name, parties, topics, problems));
  if (problems.length > 0) return result;
  const id = promediateScenarioId(input.name);
  const scenario = {
    id,
    domain: caseDomain(c.instruction),
    title: `ProMediate case: ${input.name}`,
    background: caseBackground(c.instruction),
    topics,
    parties: built.map((b) => b!.party),
    source: {
      kind: "promediate" as const,
      file: input.file,
      sha256: input.sha256,
      derived: [...DERIVED_FIELDS],
      note: provenanceNote(input, c),
    },
  };
  const checked = scenarioSchema.safeParse(scenario);
  if (!checked.success) {
    problems.push(...zodProblems(checked.error).map((p) => ({ ...p, message: `in the scenario built: ${p.message}` })));
    return result;
  }
  for (const b of built) result.weightRules[b!.party.id] = b!.rule;
  result.scenario = checked.data;
  result.condition = {
    id: conditionId(id, "general", "default"),
    scenario_id: id,
    axis: "general",
    variant: "default",
  };
  return result;
}
