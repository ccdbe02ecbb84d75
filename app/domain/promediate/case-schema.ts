/**
 * The shape of a ProMediate case file (its repository's cases/*.json) and of its topics.json, as
 * the importer reads them. Only what the importer uses is checked strictly; ProMediate's own
 * simulation settings under `config` are kept opaque.
 */
import { z } from "zod";

const prose = z.string().trim().min(1, "must not be empty");

export const promediateCaseSchema = z.object({
  /** The shared scenario text, with `{issues}` and `{options}` where ProMediate pastes those in. */
  instruction: prose,
  /** The numbered issues, one entry per topic. */
  issues: prose,
  /** Per issue, its options under one of several label styles. */
  options: prose,
  /** ProMediate's per-speaker simulation settings; its keys name the speakers (with "Mediator"). */
  config: z.record(z.string(), z.unknown()),
  /** Each speaker's private brief (background, identity, opinions, strategy) by name. */
  names: z.record(z.string(), prose),
  /** The case's own topic list (only hmo has one); the others' are in topics.json. */
  topics: z.array(prose).min(1).optional(),
});
export type PromediateCase = z.infer<typeof promediateCaseSchema>;

/** topics.json: each case's topic list by case name (file name without .json). */
export const promediateTopicsSchema = z.record(z.string(), z.array(prose).min(1));
export type PromediateTopics = z.infer<typeof promediateTopicsSchema>;

/** A problem with a case, at a JSON path inside the file named by the caller. */
export interface CaseProblem {
  path: string;
  message: string;
}

/** The speaker ProMediate adds to every case; not a party. */
export const PROMEDIATE_MEDIATOR = "Mediator";

/** Text with every run of white space (line breaks included) made one space. */
export function flatten(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
