/**
 * The three-party condition: the writer adds one structurally distinct party (a stakeholder the
 * dispute touches but the original parties do not speak for), with its role, relation and a
 * stance on every topic, plus a short public paragraph introducing it, appended to the
 * background. A second call weighs the NEW party's topics only; every original party and topic
 * is carried over verbatim, and that is checked after assembly, not trusted.
 */
import { z } from "zod";
import { MEDIATOR_ID, scenarioBodySchema, type Party, type ScenarioBody } from "../bundle.ts";
import { checkWeightsReply, fictionalNameProblems } from "../curation/writer-checks.ts";
import type { SeedReport } from "../curation/seed.ts";
import { stanceOption, type WeightsReply } from "../curation/writer.ts";
import { generalBody, type BaseScenario, type ProbeProblem } from "./expand.ts";

export const newPartyReplySchema = z.object({
  party: z.object({
    id: z.string(),
    name: z.string(),
    role: z.string(),
    relation: z.string(),
    /** topic id → the new party's stance, opening with the option it wants ("Option B: …"). */
    preferences: z.record(z.string(), z.string()),
  }),
  /** One public paragraph introducing the new party, appended to the shared background. */
  introduction: z.string(),
});
export type NewPartyReply = z.infer<typeof newPartyReplySchema>;
export type NewParty = NewPartyReply["party"];

const CODE = /^[A-Z][A-Z0-9_]{0,15}$/;

function checkIdentity(party: NewParty, base: BaseScenario, add: (rule: string, message: string) => void): void {
  if (!CODE.test(party.id) || party.id === MEDIATOR_ID)
    add(
      "new-party-id",
      `the new party's id must be an upper-case code such as UNION or WORK_2 (at most 16 characters, not ${MEDIATOR_ID}); got "${party.id}"`,
    );
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  for (const p of base.parties) {
    if (p.id === party.id)
      add("distinct-party", `the id "${party.id}" is already taken by ${p.name}; choose a new one`);
    if (same(p.name, party.name))
      add("distinct-party", `the name "${party.name}" is already a party's; the new party is someone else`);
    if (same(p.role, party.role))
      add("distinct-party", `the role repeats ${p.id}'s; the new party must have interests of its own`);
  }
  for (const [field, value] of Object.entries({ name: party.name, role: party.role, relation: party.relation })) {
    if (value.trim() === "") add("new-party-fields", `the new party's ${field} is empty`);
  }
}

function checkStances(party: NewParty, base: BaseScenario, add: (rule: string, message: string) => void): void {
  const topicIds = base.topics.map((t) => t.id);
  const missing = topicIds.filter((id) => !(id in party.preferences));
  const unknown = Object.keys(party.preferences).filter((id) => !topicIds.includes(id));
  if (missing.length > 0)
    add("stance-on-every-topic", `the new party needs a stance on every topic; missing ${missing.join(", ")}`);
  if (unknown.length > 0)
    add("stance-on-every-topic", `unknown topic ids ${unknown.join(", ")}; the topics are ${topicIds.join(", ")}`);
  for (const t of base.topics) {
    const stance = party.preferences[t.id];
    if (stance === undefined) continue;
    const letter = stanceOption(stance);
    if (!letter || !t.options.some((o) => o.label === letter)) {
      add(
        "stance-among-options",
        `the stance on ${t.id} must open with "Option X:" where X is one of ${t.options.map((o) => o.label).join(", ")}; got ${JSON.stringify(stance.slice(0, 60))}`,
      );
    }
  }
}

/**
 * The first reply: a valid, distinct new party with a stance on every topic, fictional names, a public introduction.
 */
export function checkNewPartyReply(reply: NewPartyReply, base: BaseScenario, seed: SeedReport | null): ProbeProblem[] {
  const problems: ProbeProblem[] = [];
  const add = (rule: string, message: string) => problems.push({ rule, message });
  checkIdentity(reply.party, base, add);
  checkStances(reply.party, base, add);
  if (reply.introduction.trim() === "") add("introduction", "give one public paragraph introducing the new party");
  if (seed) {
    const written = [
      reply.party.name,
      reply.party.role,
      reply.party.relation,
      reply.introduction,
      ...Object.values(reply.party.preferences),
    ].join("\n");
    problems.push(...fictionalNameProblems(written, seed));
  }
  return problems;
}

/** The second reply: weights for the new party only, positive whole numbers summing to 10, not all equal. */
export function checkNewPartyWeights(weights: WeightsReply, base: BaseScenario, party: NewParty): ProbeProblem[] {
  const problems: ProbeProblem[] = checkWeightsReply(weights, {
    title: "",
    background: "",
    topics: base.topics,
    parties: [party],
    provocative_topics: [],
  });
  const others = Object.keys(weights.weights).filter((id) => id !== party.id);
  if (others.length > 0)
    problems.push({
      rule: "weights-for-new-party-only",
      message: `give weights for ${party.id} only; the other parties keep theirs (got ${others.join(", ")})`,
    });
  return problems;
}

/** The condition's body: the original body, the introduction appended to the background, the new party last. */
export function assembleThreeParty(base: BaseScenario, reply: NewPartyReply, weights: WeightsReply): ScenarioBody {
  const body = generalBody(base);
  const party: Party = { ...reply.party, weights: weights.weights[reply.party.id] ?? {} };
  return {
    background: `${body.background}\n\n${reply.introduction.trim()}`,
    topics: body.topics,
    parties: [...body.parties, party],
  };
}

/**
 * The assembled body against the original: parties and topics verbatim, exactly one party added, and the bundle's
 * checks.
 */
export function checkThreePartyBody(base: BaseScenario, body: ScenarioBody): ProbeProblem[] {
  const problems: ProbeProblem[] = [];
  if (JSON.stringify(body.topics) !== JSON.stringify(base.topics))
    problems.push({ rule: "topics-verbatim", message: "the topics differ from the original scenario's" });
  if (body.parties.length !== base.parties.length + 1)
    problems.push({
      rule: "one-party-added",
      message: `expected ${base.parties.length + 1} parties, got ${body.parties.length}`,
    });
  base.parties.forEach((p, i) => {
    if (JSON.stringify(body.parties[i]) !== JSON.stringify(p))
      problems.push({ rule: "parties-verbatim", message: `party ${p.id} differs from the original scenario's` });
  });
  if (!body.background.startsWith(base.background))
    problems.push({ rule: "background-kept", message: "the original background must stay at the start" });
  const parsed = scenarioBodySchema.safeParse(body);
  if (!parsed.success)
    problems.push(
      ...parsed.error.issues.map((i) => ({
        rule: "scenario-checks",
        message: `${i.path.join(".") || "scenario"}: ${i.message}`,
      })),
    );
  return problems;
}
