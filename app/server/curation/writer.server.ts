/**
 * The scenario writer's two calls for one seed: recast the seed into a scenario, then weigh
 * each party's topics. Each reply is checked against the curation rules and the bundle's
 * scenario checks; a reply with problems gets one repair request naming them, and a reply still
 * broken after that makes the candidate invalid, with the rules it breaks as the reason.
 *
 * Every prompt is a pure function of the seed and the earlier replies, so a resumed curation
 * sends identical requests and the LLM cache answers them.
 */
import type { Domain, Scenario } from "../../domain/bundle.ts";
import { checkWeightsReply, checkWriterReply } from "../../domain/curation/writer-checks.ts";
import { weightsValues, writerValues } from "../../domain/curation/writer-values.ts";
import {
  assembleScenario,
  curatedScenarioId,
  weightsReplySchema,
  writerReplySchema,
  type WeightsReply,
  type WriterReply,
} from "../../domain/curation/writer.ts";
import type { SeedReport } from "../../domain/curation/seed.ts";
import type { Llm } from "../../domain/llm/types.ts";
import { checkedCall } from "../llm/checked-call.server.ts";
import { renderMessages } from "../pipeline/prompt-templates.server.ts";

/** The part of a stored seed the writer reads. */
export interface WriterSeed {
  id: string;
  domain: Domain;
  title: string;
  report: SeedReport;
}

export type WriteOutcome =
  | { ok: true; scenario: Scenario; reply: WriterReply }
  /** The writer's output broke a rule after its one repair: a rejected candidate. */
  | { ok: false; invalid: true; reason: string; candidate: Record<string, unknown> | null }
  /** A call failed (network, endpoint, interrupted): nothing is recorded, a later run retries from the cache. */
  | { ok: false; invalid: false; reason: string };

const REPAIR_TEMPLATE = "curation-writer-repair";

export async function writeScenario(llm: Llm, seed: WriterSeed): Promise<WriteOutcome> {
  const subject = `seed:${seed.id}`;
  const written = await checkedCall(llm, {
    what: "scenario",
    subject,
    messages: renderMessages("curation-writer", writerValues(seed.domain, seed.report)),
    template: "curation-writer",
    schema: writerReplySchema,
    check: (reply) => checkWriterReply(reply, seed.report, seed.domain),
    repairTemplate: REPAIR_TEMPLATE,
  });
  if (!written.ok)
    return written.invalid
      ? { ok: false, invalid: true, reason: written.reason, candidate: written.value ?? null }
      : { ok: false, invalid: false, reason: written.reason };
  const reply = written.value;

  const weighed = await checkedCall<WeightsReply>(llm, {
    what: "weights",
    subject,
    messages: renderMessages("curation-writer-weights", weightsValues(reply)),
    template: "curation-writer-weights",
    schema: weightsReplySchema,
    check: (w) => checkWeightsReply(w, reply),
    repairTemplate: REPAIR_TEMPLATE,
  });
  if (!weighed.ok) {
    if (!weighed.invalid) return { ok: false, invalid: false, reason: weighed.reason };
    return {
      ok: false,
      invalid: true,
      reason: weighed.reason,
      candidate: { ...reply, weights: weighed.value?.weights ?? null },
    };
  }
  const scenario = assembleScenario({
    id: curatedScenarioId(seed.domain, seed.id),
    domain: seed.domain,
    seedTitle: seed.title,
    reply,
    weights: weighed.value,
  });
  return { ok: true, scenario, reply };
}
