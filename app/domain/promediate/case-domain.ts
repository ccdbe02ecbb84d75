/**
 * The scenario fields a ProMediate case does not state: its domain and its background. Domain
 * rule (docs/promediate.md): count, in the case's instruction, the words that begin with each
 * domain's cue stems below; the domain with most wins, ties to the earlier domain in DOMAINS.
 */
import { DOMAINS, type Domain } from "../bundle.ts";

const CUES: Record<Domain, readonly string[]> = {
  transactional: ["price", "buyer", "seller", "sale", "rent", "lease"],
  healthcare: ["hospital", "medic", "physician", "patient", "nurs", "pharma", "drug", "clinic", "health", "formulary"],
  environmental: ["water", "river", "environment", "ecolog", "drought", "flow", "basin", "habitat"],
  "business-to-business": ["contract", "purchas", "supplier", "vendor", "engine", "airline", "rebate", "discount"],
  "public-policy": ["government", "ministr", "legislat", "public", "regulat", "citizen"],
  international: ["countr", "nation", "treaty", "border", "foreign"],
  legal: ["lawsuit", "court", "litigat", "attorney", "settle", "lawyer"],
  "intra-organizational": ["division", "department", "director", "manag", "staff", "team", "employee"],
};

/** The count of the instruction's words that begin with each domain's cues. */
export function domainCueCounts(instruction: string): Record<Domain, number> {
  const words = instruction.toLowerCase().split(/[^a-z]+/);
  return Object.fromEntries(
    DOMAINS.map((d) => [d, words.filter((w) => CUES[d].some((c) => w.startsWith(c))).length]),
  ) as Record<Domain, number>;
}

export function caseDomain(instruction: string): Domain {
  const counts = domainCueCounts(instruction);
  return DOMAINS.reduce((best, d) => (counts[d] > counts[best] ? d : best), DOMAINS[0]);
}

/**
 * The background: the instruction without ProMediate's `{issues}`/`{options}` slots (the
 * scenario's topics carry them) and without the heading line that introduces each slot.
 */
export function caseBackground(instruction: string): string {
  const lines = instruction.split(/\r?\n/);
  const slot = (l: string | undefined) => l !== undefined && /\{(issues|options)\}/.test(l);
  const kept = lines.filter((line, i) => {
    if (slot(line)) return false;
    const next = lines.slice(i + 1).find((l) => l.trim() !== "");
    return !(/^\s*#/.test(line) && slot(next));
  });
  return kept
    .join("\n")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
