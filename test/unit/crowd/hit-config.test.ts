import { describe, expect, it } from "vitest";
import {
  estimateCost,
  feeCents,
  hitConfigJson,
  hourlyWage,
  minimumFairReward,
  qualificationRequirements,
  type HitSettings,
} from "../../../app/domain/crowd/hit-config.ts";
import { answerKeyXml, externalQuestionXml, questionFormXml } from "../../../app/domain/crowd/qualification-xml.ts";
import type { QualificationTest } from "../../../app/domain/qualification.ts";

const settings: HitSettings = {
  title: "t",
  description: "d",
  keywords: ["a", "b"],
  rewardUsd: 0.5,
  assignmentsPerHit: 3,
  assignmentDurationSeconds: 3600,
  lifetimeSeconds: 604800,
  autoApprovalDelaySeconds: 259200,
  minPercentApproved: 98,
  minApprovedHits: 1000,
  locale: "US",
  minQualificationScore: 80,
  qualificationTypeId: null,
};

describe("HIT settings", () => {
  it("requires 98% approval, 1000 approved HITs and a US locale, and the test score once its type exists", () => {
    expect(qualificationRequirements(settings)).toEqual([
      {
        QualificationTypeId: "000000000000000000L0",
        Comparator: "GreaterThanOrEqualTo",
        IntegerValues: [98],
        ActionsGuarded: "Accept",
      },
      {
        QualificationTypeId: "00000000000000000040",
        Comparator: "GreaterThanOrEqualTo",
        IntegerValues: [1000],
        ActionsGuarded: "Accept",
      },
      {
        QualificationTypeId: "00000000000000000071",
        Comparator: "EqualTo",
        LocaleValues: [{ Country: "US" }],
        ActionsGuarded: "Accept",
      },
    ]);
    expect(qualificationRequirements({ ...settings, qualificationTypeId: "3QTEST" }).at(-1)).toEqual({
      QualificationTypeId: "3QTEST",
      Comparator: "GreaterThanOrEqualTo",
      IntegerValues: [80],
      ActionsGuarded: "Accept",
    });
  });

  it("charges MTurk's 20% fee, 40% from 10 assignments per HIT, at least one cent", () => {
    expect(feeCents(0.5, 3)).toBe(10);
    expect(feeCents(0.5, 10)).toBe(20);
    expect(feeCents(0.02, 3)).toBe(1);
    expect(feeCents(0.33, 1)).toBe(7); // 6.6 cents rounds to 7
  });

  it("adds up a batch in whole cents", () => {
    // 7 HITs × 3 assignments × ($0.35 + $0.07) = 21 × $0.42.
    const e = estimateCost(7, { rewardUsd: 0.35, assignmentsPerHit: 3 }, 90, "test");
    expect(e).toMatchObject({ hits: 7, assignments: 21, rewardsTotalUsd: 7.35, feesTotalUsd: 1.47, totalUsd: 8.82 });
    expect(e.hourlyWageUsd).toBeCloseTo(14, 12);
  });

  it("computes the wage and the least fair reward", () => {
    expect(hourlyWage(0.5, 120)).toBe(15);
    // $7.25/h for 100 s is 20.14 cents: the fair reward rounds up to $0.21.
    expect(minimumFairReward(100)).toBe(0.21);
    expect(hourlyWage(minimumFairReward(100), 100)).toBeGreaterThanOrEqual(7.25);
    expect(() => hourlyWage(0.5, 0)).toThrow(RangeError);
  });

  it("writes hit-config.json in the API's names and says when the test's type is still to be created", () => {
    const json = hitConfigJson(settings, estimateCost(2, settings, 60, "x"));
    expect(json).toMatchObject({
      Reward: "0.50",
      MaxAssignments: 3,
      Keywords: "a, b",
      AssignmentDurationInSeconds: 3600,
      PendingQualification: { minScore: 80 },
    });
    expect(
      hitConfigJson({ ...settings, qualificationTypeId: "Q" }, estimateCost(2, settings, 60, "x")).PendingQualification,
    ).toBeNull();
  });
});

describe("qualification test XML", () => {
  const test: QualificationTest = {
    id: "t",
    version: 2,
    title: "A & B <test>",
    instructions: 'Read "carefully"',
    pass_mark: 0.8,
    questions: [
      {
        id: "q1",
        passage: "P1 <b>",
        question: "Q1?",
        options: [
          { id: "a", text: "x" },
          { id: "b", text: "y & z" },
          { id: "c", text: "w" },
        ],
        answer: "b",
      },
      {
        id: "q2",
        passage: "P2",
        question: "Q2?",
        options: [
          { id: "a", text: "x" },
          { id: "b", text: "y" },
          { id: "c", text: "w" },
        ],
        answer: "c",
      },
    ],
  };

  it("escapes every text and lists each question with its options", () => {
    const xml = questionFormXml(test);
    expect(xml).toContain("<Title>A &amp; B &lt;test&gt;</Title>");
    expect(xml).toContain("<Text>Read &quot;carefully&quot;</Text>");
    expect(xml).toContain("<Text>P1 &lt;b&gt;</Text>");
    expect(xml.match(/<Question>/g)).toHaveLength(2);
    expect(xml.match(/<Selection>/g)).toHaveLength(6);
    expect(xml).not.toContain("<b>");
  });

  it("scores one point per right answer and reports a percentage", () => {
    const xml = answerKeyXml(test);
    expect(xml).toMatch(
      /<QuestionIdentifier>q1<\/QuestionIdentifier>\s*<AnswerOption>\s*<SelectionIdentifier>b<\/SelectionIdentifier>\s*<AnswerScore>1<\/AnswerScore>/,
    );
    expect(xml).toMatch(
      /<QuestionIdentifier>q2<\/QuestionIdentifier>\s*<AnswerOption>\s*<SelectionIdentifier>c<\/SelectionIdentifier>/,
    );
    expect(xml).toContain("<MaximumSummedScore>2</MaximumSummedScore>");
  });

  it("escapes the ExternalQuestion URL's ampersands", () => {
    expect(externalQuestionXml("https://x.org/mturk/task?study=2&item=9", 800)).toContain(
      "<ExternalURL>https://x.org/mturk/task?study=2&amp;item=9</ExternalURL>",
    );
  });
});
