/**
 * What the scenario writer returns, and how its two replies become one scenario. The first
 * call recasts a seed into the scenario's body without weights; the second gives each party
 * its preference weights. Both reply schemas are deliberately loose (the JSON shape only): the
 * curation rules (writer-checks.ts) and the bundle's own scenario checks judge the content, so
 * a broken reply can be repaired once with the exact problems named.
 */
import { z } from "zod";
import type { Domain, Scenario } from "../bundle.ts";
import { fnv1a } from "../simulation/schedule.ts";

const option = z.object({ label: z.string(), description: z.string() });
const topic = z.object({ id: z.string(), name: z.string(), description: z.string(), options: z.array(option) });
const party = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string(),
  relation: z.string(),
  /** topic id → the party's stance, opening with the option it wants ("Option B: …"). */
  preferences: z.record(z.string(), z.string()),
});

/** The first call's reply: the scenario without weights, and which topics are emotionally provocative. */
export const writerReplySchema = z.object({
  title: z.string(),
  background: z.string(),
  topics: z.array(topic),
  parties: z.array(party),
  provocative_topics: z.array(z.string()),
});
export type WriterReply = z.infer<typeof writerReplySchema>;

/** The second call's reply: party id → topic id → weight. */
export const weightsReplySchema = z.object({ weights: z.record(z.string(), z.record(z.string(), z.number())) });
export type WeightsReply = z.infer<typeof weightsReplySchema>;

/** A scenario id derived from its seed, so a resumed curation writes the same scenario, never a second one. */
export function curatedScenarioId(domain: Domain, seedId: string): string {
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  return `curated-${domain}-${hex(fnv1a(seedId))}${hex(fnv1a(`curated:${seedId}`))}`;
}

/** The option letter a stance opens with ("Option B: …" → "B"), or null. */
export function stanceOption(stance: string): string | null {
  return /^\s*option\s+([A-Z])\b/i.exec(stance)?.[1]?.toUpperCase() ?? null;
}

/** The writer's two replies as one bundle scenario (not yet checked). */
export function assembleScenario(input: {
  id: string;
  domain: Domain;
  seedTitle: string;
  reply: WriterReply;
  weights: WeightsReply;
}): Scenario {
  const { reply, weights } = input;
  return {
    id: input.id,
    domain: input.domain,
    title: reply.title,
    background: reply.background,
    topics: reply.topics,
    parties: reply.parties.map((p) => ({ ...p, weights: weights.weights[p.id] ?? {} })),
    source: { kind: "curated", note: `recast by the scenario writer from the seed "${input.seedTitle}"` },
  };
}
