/**
 * The writer's stand-in for curation's two calls (templates curation-writer,
 * curation-writer-weights): a scenario recast from the seed report in the prompt, and the parties'
 * weights. Every reply is a function of the request alone, so replays and the cache behave as
 * with a seeded real model.
 *
 * Some seeds get a broken reply, chosen by a hash of the seed's title (or forced by a marker in
 * the title, e.g. "[writer:weights-sum-9]"), so repair and rejection are exercised:
 * - five-topics, stance-off-options, weights-sum-9: broken on the first try, fixed on repair;
 * - five-topics-stubborn, equal-weights-stubborn: still broken after the repair (rejected).
 */
import { hash32, type MockChatRequest } from "../stand-in-request.ts";

export const WRITER_FLAWS = [
  "five-topics",
  "stance-off-options",
  "weights-sum-9",
  "five-topics-stubborn",
  "equal-weights-stubborn",
] as const;
export type WriterFlaw = (typeof WRITER_FLAWS)[number];

type Request = Pick<MockChatRequest, "messages">;

export const hashOf = (text: string) => hash32(text);
export const firstUser = (r: Request) => r.messages.find((m) => m.role === "user")?.content ?? "";
export const isRepair = (r: Request) => r.messages.filter((m) => m.role === "user").length > 1;

/** The flaw a seed's scenario carries: a marker in its title, else four seeds in ten by hash. */
export function writerFlaw(seedTitle: string): WriterFlaw | null {
  const marked = /\[writer:([a-z0-9-]+)\]/.exec(seedTitle)?.[1];
  if (marked) return (WRITER_FLAWS as readonly string[]).includes(marked) ? (marked as WriterFlaw) : null;
  const byHash: Record<number, WriterFlaw> = {
    5: "five-topics",
    6: "weights-sum-9",
    7: "stance-off-options",
    8: "equal-weights-stubborn",
  };
  return byHash[hashOf(seedTitle) % 10] ?? null;
}

interface SeedView {
  domain: string;
  title: string;
  parties: string[];
  issues: string[];
  dates: string[];
}

export function section(text: string, heading: string): string[] {
  // Up to the next heading or the end of the text (not of the line: the "m" flag makes $ match there).
  const body = new RegExp(`^## ${heading}\\n([\\s\\S]*?)(?=\\n## |(?![\\s\\S]))`, "m").exec(text)?.[1] ?? "";
  return body
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
}

function seedView(text: string): SeedView {
  return {
    domain: /^Domain: (.+)$/m.exec(text)?.[1] ?? "general",
    title: /^# (.+)$/m.exec(text)?.[1] ?? "a dispute",
    parties: section(text, "Parties").map((l) => l.split(":")[0].trim()),
    issues: section(text, "Contested issues"),
    dates: section(text, "Timeline").map((l) => l.split(":")[0].trim()),
  };
}

export const FIRST = ["Corvane", "Halden", "Mirelle", "Ostrava", "Pellham", "Quillon", "Sarnow", "Tavrin"];
const SECOND = ["Holdings", "Trust", "Council", "Guild", "Partners", "Authority", "Collective", "Works"];

/** Real names and dates replaced, so the stand-in's scenarios pass the fictional-names rules. */
function scrubber(seed: SeedView, names: string[]): (text: string) => string {
  return (text) => {
    let out = text;
    seed.parties.forEach((real, i) => (out = out.split(real).join(names[i % names.length])));
    for (const date of seed.dates) out = out.split(date).join("an earlier date");
    return out;
  };
}

function scenarioReply(request: Request, flaw: WriterFlaw | null): object {
  const seed = seedView(firstUser(request));
  const h = hashOf(seed.title);
  const names = [0, 1].map(
    (i) =>
      `${FIRST[(h >>> (i * 4)) % FIRST.length]} ${SECOND[(h >>> (i * 4 + 2)) % SECOND.length]}${i === 1 ? " Group" : ""}`,
  );
  const scrub = scrubber(seed, names);
  const repaired = isRepair(request);
  const five = flaw === "five-topics-stubborn" || (flaw === "five-topics" && !repaired);
  const count = five ? 5 : flaw === "equal-weights-stubborn" ? 2 : 3;
  const issues = Array.from({ length: count }, (_, i) =>
    scrub(seed.issues[i % Math.max(1, seed.issues.length)] ?? `open point ${i + 1}`),
  );
  const topics = issues.map((issue, i) => ({
    id: `ISSUE_${i + 1}`,
    name: `Point ${i + 1}: ${issue.slice(0, 60)}`,
    description: `What the two sides must settle: ${issue}`,
    options: ["the first side's terms", "the second side's terms", "a split with a review in a year"].map((d, j) => ({
      label: String.fromCharCode(65 + j),
      description: `Settle on ${d}.`,
    })),
  }));
  const stance = (party: number, topic: number) => {
    if (flaw === "stance-off-options" && !repaired && party === 1 && topic === 0)
      return "Option E: a settlement nobody offered.";
    return `Option ${party === 0 ? "A" : "B"}: this is what ${names[party]} needs; option C only as a last resort.`;
  };
  return {
    title: `The ${names[0]} dispute`,
    // The case is written into the scenario so the weights call (which sees only the scenario) knows it.
    background: scrub(
      `A stand-in scenario (${seed.domain}; stand-in writer case: ${flaw ?? "valid"}), recast from a report on ${seed.title}. ${names[0]} and ${names[1]} have argued for months and a decision is now due.`,
    ),
    topics,
    parties: names.map((name, p) => ({
      id: p === 0 ? "FIRST_SIDE" : "SECOND_SIDE",
      name,
      role: `Speaks for ${name}; needs a settlement it can defend at home.`,
      relation: `Long-time counterpart of ${names[1 - p]}.`,
      preferences: Object.fromEntries(topics.map((t, i) => [t.id, stance(p, i)])),
    })),
    provocative_topics: [topics[0].id],
  };
}

export const SPREADS: Record<number, number[]> = {
  1: [10],
  2: [7, 3],
  3: [5, 3, 2],
  4: [4, 3, 2, 1],
  5: [3, 3, 2, 1, 1],
};

function weightsReply(request: Request): object {
  const text = firstUser(request);
  const topicIds = (/^Topic ids: (.+)$/m.exec(text)?.[1] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const partyIds = (/^Party ids: (.+)$/m.exec(text)?.[1] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const seedFlaw = /stand-in writer case: ([a-z0-9-]+)\)/.exec(text)?.[1] as WriterFlaw | "valid" | undefined;
  const repaired = isRepair(request);
  const weights = Object.fromEntries(
    partyIds.map((party, p) => {
      let spread = [...(SPREADS[topicIds.length] ?? topicIds.map(() => 1))];
      if (p === 1) spread.reverse();
      if (seedFlaw === "weights-sum-9" && !repaired && p === 0) spread[0] -= 1;
      if (seedFlaw === "equal-weights-stubborn") spread = topicIds.map(() => 5);
      return [party, Object.fromEntries(topicIds.map((id, i) => [id, spread[i]]))];
    }),
  );
  return { weights };
}

/**
 * The scenario writer's replies: a scenario (template curation-writer) or the parties' weights
 * (curation-writer-weights).
 */
export function curationWriterReply(request: Request, template: "curation-writer" | "curation-writer-weights"): object {
  return template === "curation-writer"
    ? scenarioReply(request, writerFlaw(seedView(firstUser(request)).title))
    : weightsReply(request);
}
