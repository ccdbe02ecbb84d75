/**
 * The writer's stand-in for the condition writer's calls (templates probe-three-party,
 * probe-party-weights, probe-history): a new party for the three-party condition, its weights, and four dated history
 * entries sized to the length the prompt asks for. Every reply is a function of the request.
 *
 * Flaws, chosen by a marker in the scenario's title (or, for history, one scenario in three by
 * a hash of the title), exercise repair and rejection:
 * - history-short: entries far too short on the first try, the right length on repair;
 * - history-stubborn: too short even after the repair (rejected);
 * - party-clash: the new party first takes a present party's id, a fresh one on repair.
 */
import type { MockChatRequest } from "../stand-in-request.ts";
import { FIRST, firstUser, hashOf, isRepair, section, SPREADS } from "./stand-in-scenario.ts";

export const PROBE_FLAWS = ["history-short", "history-stubborn", "party-clash"] as const;
export type ProbeFlaw = (typeof PROBE_FLAWS)[number];

type Request = Pick<MockChatRequest, "messages">;

const line = (text: string, pattern: RegExp) => pattern.exec(text)?.[1] ?? "";
const list = (value: string) =>
  value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const titleOf = (text: string) => line(text, /^## The scenario: (.+)$/m);

/** The scenario's flaw: a marker in its title; else history-short for one title in three. */
export function probeFlaw(title: string): ProbeFlaw | null {
  const marked = /\[probe:([a-z-]+)\]/.exec(title)?.[1];
  if (marked) return (PROBE_FLAWS as readonly string[]).includes(marked) ? (marked as ProbeFlaw) : null;
  return hashOf(title) % 3 === 0 ? "history-short" : null;
}

const GROUPS = [
  "Residents' Association",
  "Staff Union",
  "Oversight Board",
  "Suppliers' Cooperative",
  "Parents' Network",
  "Funding Trust",
];

function threePartyReply(request: Request): object {
  const text = firstUser(request);
  const title = titleOf(text);
  const h = hashOf(title);
  const taken = list(line(text, /^Present party ids: (.+)$/m));
  const clash = probeFlaw(title) === "party-clash" && !isRepair(request);
  const id = clash ? taken[0] : ["NEWCOMER", "NEWCOMER_2", "NEWCOMER_3"].find((c) => !taken.includes(c))!;
  const name = `${FIRST[h % FIRST.length]} ${GROUPS[(h >>> 3) % GROUPS.length]}`;
  const preferences = Object.fromEntries(
    list(line(text, /^Topic ids: (.+)$/m)).map((topic) => {
      const labels = [
        ...(new RegExp(`\\(${topic}\\)\\n[^\\n]*\\n((?:- [A-Z]: .*\\n?)+)`).exec(text)?.[1] ?? "- A: x").matchAll(
          /^- ([A-Z]):/gm,
        ),
      ].map((m) => m[1]);
      return [
        topic,
        `Option ${labels[labels.length - 1]}: this is the outcome ${name} can live with; it asks that its members are heard before anything is signed.`,
      ];
    }),
  );
  return {
    party: {
      id,
      name,
      role: `Speaks for the people ${name} represents, who bear the consequences of any deal without having made it.`,
      relation: "Affected by whatever the others agree; has worked with both of them before and trusts neither fully.",
      preferences,
    },
    introduction: `${name} has asked for, and been given, a seat at the table: its members live with the consequences of whatever is agreed here, and it intends to say so.`,
  };
}

function weightsReply(request: Request): object {
  const text = firstUser(request);
  const topics = list(line(text, /^Topic ids: (.+)$/m));
  const party = line(text, /^New party id: (.+)$/m);
  const spread = SPREADS[topics.length] ?? topics.map(() => 1);
  // The newcomer cares most about the last topic: the reverse of the first curated party's order.
  return { weights: { [party]: Object.fromEntries(topics.map((t, i) => [t, spread[topics.length - 1 - i]])) } };
}

const FILLER = [
  "Both sides kept notes of the meeting, and their notes later disagreed about what had been promised.",
  "Word of it spread quickly among the people each side answers to, and positions hardened.",
  "A first attempt to settle the matter quietly went nowhere, and each side blamed the other for the delay.",
  "Nobody walked away from the table, but nobody came back to it with anything new either.",
  "Costs and frustration rose while the question stayed open, and the tone of every letter grew sharper.",
  "An outside adviser was asked for an opinion; both sides quoted the parts of it that suited them.",
];

/** One entry's text: the seed's event (real names scrubbed) or a generic one, padded with sentences up to `length`. */
function entryText(event: string, length: number, offset: number): string {
  const sentences = [event];
  for (let i = 0; sentences.join(" ").length < length; i++) sentences.push(FILLER[(offset + i) % FILLER.length]);
  return sentences.join(" ");
}

function historyReply(request: Request): object {
  const text = firstUser(request);
  const title = titleOf(text);
  const flaw = probeFlaw(title);
  const short = flaw === "history-stubborn" || (flaw === "history-short" && !isRepair(request));
  const total = Number(line(text, /Four entries together: about (\d+) characters/));
  const perEntry = short ? Math.floor(total / 40) : Math.floor(total / 4);
  const realNames = section(text, "Parties").map((l) => l.split(":")[0].trim());
  const scrub = (s: string) => realNames.reduce((out, name) => out.split(name).join("one of the parties"), s);
  const seedEvents = section(text, "Timeline").map((l) => scrub(l.slice(l.indexOf(":") + 1).trim()));
  const year = 2014 + (hashOf(title) % 5);
  const dates = [`${year}-03`, `${year + 1}-07`, `${year + 2}-01`, `${year + 3}-10`];
  const generic = [
    "The arrangement the parties still argue about was first agreed, on terms each side now remembers differently.",
    "A change in circumstances put the arrangement under strain, and one side asked to reopen it.",
    "Talks to reopen it began and broke off after a public disagreement.",
    "The dispute reached the point described below, and a decision could no longer wait.",
  ];
  return { entries: dates.map((date, i) => ({ date, event: entryText(seedEvents[i] ?? generic[i], perEntry, i) })) };
}

/** The condition writer's replies, by template. */
export function probeWriterReply(
  request: Request,
  template: "probe-three-party" | "probe-party-weights" | "probe-history",
): object {
  if (template === "probe-three-party") return threePartyReply(request);
  return template === "probe-party-weights" ? weightsReply(request) : historyReply(request);
}
