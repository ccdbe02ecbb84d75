/**
 * A seed report: one real dispute the searcher found (SoCRATES §3.2, App. C), the raw material the
 * scenario writer recasts. It records who is in dispute, over what, when things happened, the
 * institutional tensions behind it, where it stands, and the sources it was taken from.
 *
 * `dedupeKeyOf` gives the same key to the same dispute found twice (a differently punctuated or
 * cased title, the parties listed in another order), so it is never recast twice.
 */
import { z } from "zod";

const text = z.string().trim().min(1, "must not be empty");

export const seedSourceSchema = z.object({
  url: z.string().trim().url("must be an absolute URL"),
  title: z.string().trim().min(1).optional(),
});
export type SeedSource = z.infer<typeof seedSourceSchema>;

export const seedReportSchema = z.object({
  title: text,
  summary: text,
  parties: z.array(z.object({ name: text, description: text })).min(2, "a dispute has at least two parties"),
  issues: z.array(text).min(1, "name at least one contested issue"),
  timeline: z.array(z.object({ date: text, event: text })),
  tensions: z.array(text),
  status: text,
  sources: z.array(seedSourceSchema),
});
export type SeedReport = z.infer<typeof seedReportSchema>;

/**
 * The searcher's other honest answer: every dispute it can find is already collected (or none
 * fits). The curate loop then reports the domain's source as exhausted instead of failing.
 */
export const noNewDisputeSchema = z.object({ noNewDispute: text }).strict();

/** A seed found on the web must cite at least one source. */
export const webSeedReportSchema = seedReportSchema.extend({
  sources: z.array(seedSourceSchema).min(1, "cite at least one source URL"),
});

/** Words that carry no identity in a dispute's title or a party's name. */
const FILLER = new Set([
  "a",
  "an",
  "the",
  "of",
  "and",
  "in",
  "on",
  "at",
  "for",
  "to",
  "over",
  "v",
  "vs",
  "versus",
  "dispute",
  "conflict",
  "case",
  "inc",
  "ltd",
  "llc",
  "plc",
  "corp",
  "corporation",
  "co",
  "company",
]);

/** Lower case, accents dropped, punctuation to spaces, filler words dropped. */
export function normaliseWords(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .split(" ")
    .filter((word) => word !== "" && !FILLER.has(word))
    .join(" ");
}

/** One key per dispute: the normalised title and the sorted, normalised party names. */
export function dedupeKeyOf(report: { title: string; parties: readonly { name: string }[] }): string {
  const parties = report.parties.map((party) => normaliseWords(party.name)).filter((name) => name !== "");
  return `${normaliseWords(report.title)}|${[...new Set(parties)].sort().join(";")}`;
}
