import { describe, expect, it } from "vitest";
import { checkWeightsReply, checkWriterReply, describeProblems } from "../../../app/domain/curation/writer-checks.ts";
import type { WriterReply } from "../../../app/domain/curation/writer.ts";
import { seedReport } from "./writer-helpers.ts";

function reply(): WriterReply {
  const options = [
    { label: "A", description: "One way." },
    { label: "B", description: "Another way." },
  ];
  return {
    title: "The Corvane dispute",
    background: "Two fictional bodies argue.",
    topics: [
      { id: "CARE", name: "Care", description: "Who keeps the ward open.", options },
      { id: "JOBS", name: "Jobs", description: "Who keeps the nurses.", options },
    ],
    parties: [
      {
        id: "OPS",
        name: "Corvane Trust",
        role: "Runs it.",
        relation: "Regulated.",
        preferences: { CARE: "Option A: cheaper.", JOBS: "Option A: fewer." },
      },
      {
        id: "REG",
        name: "Halden Council",
        role: "Regulates.",
        relation: "Regulator.",
        preferences: { CARE: "Option B: safer.", JOBS: "Option B: keep them." },
      },
    ],
    provocative_topics: ["CARE"],
  };
}

const rules = (r: WriterReply) => checkWriterReply(r, seedReport("Hospital"), "healthcare").map((p) => p.rule);

describe("the curation rules", () => {
  it("accept a well-formed two-party scenario", () => {
    expect(checkWriterReply(reply(), seedReport("Hospital"), "healthcare")).toEqual([]);
  });

  it("name a real party name or date carried over from the seed", () => {
    const r = reply();
    r.background = "Northwind Regional Health announced the closure in March 2023.";
    expect(rules(r)).toEqual(["fictional-names", "fictional-dates"]);
    // A generic description of a party is not a name.
    const seed = seedReport("Hospital");
    seed.parties[1].name = "Local residents";
    r.background = "Local residents protested against the closure.";
    expect(checkWriterReply(r, seed, "healthcare")).toEqual([]);
  });

  it("need diverging stances, a provocative topic and two parties", () => {
    const same = reply();
    same.parties[1].preferences = { CARE: "Option A: fine.", JOBS: "Option A: fine." };
    expect(rules(same)).toEqual(["diverging-stances"]);
    const calm = reply();
    calm.provocative_topics = ["NOPE"];
    expect(rules(calm)).toEqual(["provocative-topic"]);
    const three = reply();
    three.parties.push({ ...three.parties[1], id: "THIRD" });
    expect(rules(three)).toContain("two-parties");
  });

  it("report the bundle's own checks too (option letters out of order)", () => {
    const r = reply();
    r.topics[0].options[1].label = "C";
    const problems = checkWriterReply(r, seedReport("Hospital"), "healthcare");
    expect(problems.map((p) => p.rule)).toContain("scenario-checks");
    expect(describeProblems(problems)).toContain(
      'topics.0.options.1.label: options are lettered in order: expected "B", got "C"',
    );
  });

  it("check weights: one per topic, whole, positive, summing to 10, never all equal", () => {
    const w = (ops: Record<string, number>, reg: Record<string, number>) =>
      checkWeightsReply({ weights: { OPS: ops, REG: reg } }, reply()).map((p) => p.rule);
    expect(w({ CARE: 7, JOBS: 3 }, { CARE: 4, JOBS: 6 })).toEqual([]);
    expect(w({ CARE: 5, JOBS: 5 }, { CARE: 4, JOBS: 6 })).toEqual(["weights-not-all-equal"]);
    expect(w({ CARE: 6, JOBS: 3 }, { CARE: 4, JOBS: 6 })).toEqual(["weights-sum-to-10"]);
    expect(w({ CARE: 10 }, { CARE: 4, JOBS: 6 })).toEqual(["weights-for-every-topic"]);
    expect(w({ CARE: 10.5, JOBS: -0.5 }, { CARE: 4, JOBS: 6 })).toEqual(["weights-sum-to-10"]);
  });
});
