/**
 * The condition writer's calls: three-party (a new party, then its weights) and extended history
 * (four dated entries). Each reply is checked (app/domain/probing/three-party.ts, history.ts),
 * repaired once when broken, and the assembled body is checked again before it may be stored.
 * Every prompt is a pure function of the scenario and its seed, so a resumed probe is answered
 * from the LLM cache.
 */
import type { ZodType } from "zod";
import type { Condition, ConditionProvenance } from "../../domain/bundle.ts";
import type { SeedReport } from "../../domain/curation/seed.ts";
import { weightsReplySchema } from "../../domain/curation/writer.ts";
import { describeProblems } from "../../domain/curation/writer-checks.ts";
import type { Llm } from "../../domain/llm/types.ts";
import type { TemplateValues } from "../../domain/prompts/template.ts";
import { expandedCondition, type ProbeProblem, type WriterAxis } from "../../domain/probing/expand.ts";
import {
  historyValues,
  partyWeightsValues,
  threePartyValues,
  type ProbeScenario,
} from "../../domain/probing/expand-values.ts";
import {
  assembleHistory,
  checkHistoryBody,
  checkHistoryReply,
  historyReplySchema,
  lengthRatio,
  roundRatio,
} from "../../domain/probing/history.ts";
import {
  assembleThreeParty,
  checkNewPartyReply,
  checkNewPartyWeights,
  checkThreePartyBody,
  newPartyReplySchema,
} from "../../domain/probing/three-party.ts";
import { checkedCall } from "../llm/checked-call.server.ts";
import { renderMessages, templateVersion } from "../pipeline/prompt-templates.server.ts";

const REPAIR_TEMPLATE = "curation-writer-repair";
export const PROBE_TEMPLATES: Record<WriterAxis, readonly string[]> = {
  parties: ["probe-three-party", "probe-party-weights", REPAIR_TEMPLATE],
  history: ["probe-history", REPAIR_TEMPLATE],
};

/** The seed report a writer condition works from; null = from the scenario's background. */
export interface ProbeSeed {
  id: string;
  report: SeedReport;
}

export type WriterOutcome =
  | { ok: true; condition: Condition }
  /**
   * invalid: the writer's output broke a rule after its repair (rejected); else a call failed (retried by a later run).
   */
  | { ok: false; invalid: boolean; reason: string };

const subjectOf = (s: ProbeScenario) => `probe:${s.id}`;

function provenance(axis: WriterAxis, model: string, seed: ProbeSeed | null, repaired: boolean): ConditionProvenance {
  return {
    method: "writer",
    prompt_version: templateVersion(PROBE_TEMPLATES[axis]),
    writer_model: model,
    seed_id: seed?.id ?? null,
    ...(repaired ? { repaired } : {}),
  };
}

/** One checked writer call for a scenario: its template, filled, with the shared repair prompt. */
function writerCall<T>(
  llm: Llm,
  s: ProbeScenario,
  what: string,
  template: string,
  values: TemplateValues,
  schema: ZodType<T>,
  check: (value: T) => ProbeProblem[],
) {
  const messages = renderMessages(template, values);
  return checkedCall(llm, {
    what,
    subject: subjectOf(s),
    messages,
    template,
    schema,
    check,
    repairTemplate: REPAIR_TEMPLATE,
  });
}

export async function writeThreeParty(llm: Llm, s: ProbeScenario, seed: ProbeSeed | null): Promise<WriterOutcome> {
  const report = seed?.report ?? null;
  const party = await writerCall(
    llm,
    s,
    "new party",
    "probe-three-party",
    threePartyValues(s, report),
    newPartyReplySchema,
    (reply) => checkNewPartyReply(reply, s, report),
  );
  if (!party.ok) return party;
  const { party: newParty, introduction } = party.value;
  const weights = await writerCall(
    llm,
    s,
    "new party's weights",
    "probe-party-weights",
    partyWeightsValues(s, newParty, introduction),
    weightsReplySchema,
    (w) => checkNewPartyWeights(w, s, newParty),
  );
  if (!weights.ok) return weights;
  const body = assembleThreeParty(s, party.value, weights.value);
  const problems = checkThreePartyBody(s, body);
  if (problems.length > 0)
    return { ok: false, invalid: true, reason: `assembled three-party scenario: ${describeProblems(problems)}` };
  return {
    ok: true,
    condition: expandedCondition(
      s.id,
      "parties",
      "three-party",
      body,
      provenance("parties", party.model, seed, party.repaired || weights.repaired),
    ),
  };
}

export async function writeHistory(llm: Llm, s: ProbeScenario, seed: ProbeSeed | null): Promise<WriterOutcome> {
  const report = seed?.report ?? null;
  const history = await writerCall(
    llm,
    s,
    "history",
    "probe-history",
    historyValues(s, report),
    historyReplySchema,
    (reply) => checkHistoryReply(reply, s, report),
  );
  if (!history.ok) return history;
  const body = assembleHistory(s, history.value);
  const problems = checkHistoryBody(s, body);
  if (problems.length > 0)
    return { ok: false, invalid: true, reason: `assembled history scenario: ${describeProblems(problems)}` };
  const ratio = roundRatio(lengthRatio(body.background, s.background));
  return {
    ok: true,
    condition: expandedCondition(s.id, "history", "extended", body, {
      ...provenance("history", history.model, seed, history.repaired),
      length_ratio: ratio,
    }),
  };
}
