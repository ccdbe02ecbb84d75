import { afterEach, describe, expect, it } from "vitest";
import { scenarioSchema } from "../../../app/domain/bundle.ts";
import { writeScenario } from "../../../app/server/curation/writer.server.ts";
import { scripted, startMockLlm, type Responder } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { curationLlm, writerSeed } from "./writer-helpers.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(
  respond: Responder = standInResponder({ roles: ["writer"] }),
  options: { structuredWriter?: boolean } = {},
) {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  const mock = await startMockLlm({ respond });
  cleanups.push(() => mock.close());
  const userMessages = () =>
    mock.requests.map((r) =>
      (r.body as { messages: { role: string; content: string }[] }).messages
        .filter((m) => m.role === "user")
        .map((m) => m.content),
    );
  return { ...t, mock, llm: curationLlm(t.db, mock, options), userMessages };
}

describe("the scenario writer", () => {
  it("recasts a seed into a scenario that passes the import checks, with fictional names and weights summing to 10", async () => {
    const t = await setup();
    const seed = writerSeed("Hospital closure [writer:valid]");
    const outcome = await writeScenario(t.llm, seed);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(scenarioSchema.safeParse(outcome.scenario).success).toBe(true);
    expect(outcome.scenario.source.kind).toBe("curated");
    expect(outcome.scenario.parties).toHaveLength(2);
    const text = JSON.stringify(outcome.scenario);
    for (const real of ["Northwind Regional Health", "State Health Department", "March 2023", "June 2024"])
      expect(text).not.toContain(real);
    for (const p of outcome.scenario.parties) expect(Object.values(p.weights).reduce((a, b) => a + b, 0)).toBe(10);
    expect(t.mock.requests).toHaveLength(2); // scenario, weights: no repair needed
  });

  it.each([
    ["five-topics", "at-most-four-topics", "one to 4 topics, got 5"],
    [
      "stance-off-options",
      "stance-among-options",
      `SECOND_SIDE's stance on ISSUE_1 must open with "Option X:" where X is one of A, B, C`,
    ],
    ["weights-sum-9", "weights-sum-to-10", "FIRST_SIDE's weights sum to 9, not 10"],
  ])("repairs a reply with the flaw %s once, naming rule %s and the exact error", async (flaw, rule, error) => {
    const t = await setup();
    const outcome = await writeScenario(t.llm, writerSeed(`Dispute [writer:${flaw}]`));
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(scenarioSchema.safeParse(outcome.scenario).success).toBe(true);
    const repair =
      t
        .userMessages()
        .find((m) => m.length > 1)
        ?.at(-1) ?? "";
    expect(repair).toContain(`rule ${rule}: ${error}`);
    expect(t.mock.requests).toHaveLength(3);
  });

  it.each([
    ["five-topics-stubborn", "rule at-most-four-topics: one to 4 topics, got 5"],
    ["equal-weights-stubborn", "rule weights-not-all-equal: FIRST_SIDE's weights are all 5"],
  ])("rejects a reply still showing %s after its repair, naming the rule", async (flaw, reason) => {
    const t = await setup();
    const outcome = await writeScenario(t.llm, writerSeed(`Dispute [writer:${flaw}]`));
    expect(outcome.ok).toBe(false);
    if (outcome.ok || !outcome.invalid) throw new Error("expected an invalid candidate");
    expect(outcome.reason).toContain("after one repair");
    expect(outcome.reason).toContain(reason);
    expect(outcome.candidate).not.toBeNull();
  });

  it("rejects weights summing to 9 and a stance outside the options when the repair repeats them", async () => {
    const valid = standInResponder({ roles: ["writer"] });
    const t = await setup(
      scripted([
        {
          matchAny: /^You turn reports of real disputes/,
          reply: (req) => {
            const reply = valid(req) as { parties: { preferences: Record<string, string> }[] };
            reply.parties[0].preferences.ISSUE_2 = "Option Z: something else entirely.";
            return reply;
          },
        },
      ]),
    );
    const outcome = await writeScenario(t.llm, writerSeed("Stance off the options [writer:valid]"));
    if (outcome.ok || !outcome.invalid) throw new Error("expected an invalid candidate");
    expect(outcome.reason).toMatch(
      /^scenario after one repair: rule stance-among-options: FIRST_SIDE's stance on ISSUE_2 must open with "Option X:"/,
    );

    const t2 = await setup(
      scripted([
        {
          matchAny: /^You decide how much each party/,
          reply: () => ({
            weights: {
              FIRST_SIDE: { ISSUE_1: 5, ISSUE_2: 3, ISSUE_3: 1 },
              SECOND_SIDE: { ISSUE_1: 2, ISSUE_2: 3, ISSUE_3: 5 },
            },
          }),
        },
        { reply: valid },
      ]),
    );
    const weighed = await writeScenario(t2.llm, writerSeed("Weights off [writer:valid]"));
    if (weighed.ok || !weighed.invalid) throw new Error("expected an invalid candidate");
    expect(weighed.reason).toBe(
      "weights after one repair: rule weights-sum-to-10: FIRST_SIDE's weights sum to 9, not 10",
    );
  });

  it("asks for structured output where the writer is configured for it, and still repairs", async () => {
    const t = await setup(standInResponder({ roles: ["writer"] }), { structuredWriter: true });
    const outcome = await writeScenario(t.llm, writerSeed("Structured [writer:weights-sum-9]"));
    expect(outcome.ok).toBe(true);
    const formats = t.mock.requests.map(
      (r) => (r.body as { response_format?: { type: string } }).response_format?.type,
    );
    expect(formats).toEqual(["json_schema", "json_schema", "json_schema"]);
  });

  it("sends the same requests for the same seed, so a second run is answered from the cache", async () => {
    const t = await setup();
    const seed = writerSeed("Cache check [writer:weights-sum-9]");
    await writeScenario(t.llm, seed);
    const before = t.mock.requests.length;
    const again = await writeScenario(t.llm, seed);
    expect(again.ok).toBe(true);
    expect(t.mock.requests.length).toBe(before);
  });
});
