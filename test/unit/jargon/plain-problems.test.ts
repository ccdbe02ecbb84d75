import { describe, expect, it } from "vitest";
import { fieldWords, plainMessage, plainProblem } from "../../../app/domain/crowd/plain-problems.ts";
import { parseExternalQuestionParams } from "../../../app/crowd-channels/mturk/external-question-params.server.ts";
import { ServiceError } from "../../../app/server/http/errors.server.ts";

/** A path or zod's stock wording, as a worker would see them leak: "item: Required", "topics.t1.score". */
const LEAK =
  /\b(item|study|assignmentId|hitId|workerId|turkSubmitTo|payload|query|choice|topics)\b\s*:|Required|\w+\.\w+\.\w+/;

function refusal(params: Record<string, string>): ServiceError {
  try {
    parseExternalQuestionParams(new URLSearchParams(params), ["https://workersandbox.mturk.com"]);
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error("expected the link to be refused");
}

describe("field problems in plain words", () => {
  it("says what is wrong with a task link without naming its parameters", () => {
    const missingItem = refusal({ study: "1", assignmentId: "ASSIGNMENT_ID_NOT_AVAILABLE" });
    expect(missingItem.message).toBe(
      "The task link is not valid. The item number is missing. Please open the task from Mechanical Turk again.",
    );
    // The problems keep their paths for the code that places them.
    expect(missingItem.problems).toEqual([{ path: "item", message: "Required" }]);

    const several = refusal({ study: "x", item: "0", assignmentId: "a b", turkSubmitTo: "https://evil.example" });
    expect(several.message).toContain("The study number must be a positive whole number.");
    expect(several.message).toContain("The item number must be a positive whole number.");
    expect(several.message).toContain("The assignment ID");
    for (const e of [missingItem, several]) expect(e.message).not.toMatch(LEAK);

    const badOrigin = refusal({ study: "1", item: "2", assignmentId: "A1", turkSubmitTo: "https://evil.example" });
    expect(badOrigin.message).toMatch(/^The task link is not valid\. The address your answer goes back to/);
    expect(badOrigin.message).not.toMatch(/turkSubmitTo/);
  });

  it("turns zod's stock messages and answer paths into words, and keeps our own sentences", () => {
    expect(plainProblem({ path: "choice", message: "Invalid enum value. Expected 'A' | 'B', received 'C'" })).toBe(
      "Your choice is not one of the choices.",
    );
    expect(plainProblem({ path: "topics.t-1.score", message: "a score is 1 to 5" })).toBe(
      "The agreement score for a topic: a score is 1 to 5.",
    );
    expect(plainProblem({ path: "payload", message: "not JSON" })).toBe("Your answer: not JSON.");
    expect(plainProblem({ path: "", message: "Expected object, received string" })).toBe(
      "Your answer has the wrong kind of value.",
    );
    // A message that opens with its parameter's name (Prolific's) drops the name for the words.
    expect(plainProblem({ path: "SESSION_ID", message: "SESSION_ID is missing" })).toBe(
      "The Prolific session ID is missing.",
    );
    expect(plainMessage("choose A or B")).toBe("choose A or B");
    expect(fieldWords("topics.t1.positions.p2")).toBe("a party's position on a topic");
    expect(fieldWords("somethingInternal")).toBe("part of your answer");
  });
});
