/**
 * A stand-in for the MTurk requester API in tests, on aws-sdk-client-mock (no network): it lists
 * assignments per HIT, two to a page, and flips a Submitted assignment's status when
 * ApproveAssignment or RejectAssignment arrives, so a second sync sees what MTurk would report.
 * Also the Answer XML an ExternalQuestion submit of our task page leaves on MTurk.
 */
import {
  ApproveAssignmentCommand,
  ListAssignmentsForHITCommand,
  MTurkClient,
  RejectAssignmentCommand,
  RequestError,
  type Assignment,
  type ListAssignmentsForHITCommandInput,
} from "@aws-sdk/client-mturk";
import { mockClient } from "aws-sdk-client-mock";
import { xmlEscape } from "../../app/domain/crowd/qualification-xml.ts";

/** The one mock of MTurkClient (aws-sdk-client-mock patches the class, so a test file shares one). */
export const mturkMock = mockClient(MTurkClient);

/** An Answer as MTurk reports an ExternalQuestion submit of our task page. */
export function answerXml(fields: Record<string, string>): string {
  const answers = Object.entries(fields)
    .map(
      ([id, text]) =>
        `<Answer><QuestionIdentifier>${id}</QuestionIdentifier><FreeText>${xmlEscape(text)}</FreeText></Answer>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="ASCII"?>
<QuestionFormAnswers xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd">
${answers}
</QuestionFormAnswers>`;
}

/** The Answer of a submit whose page posted this label. */
export const labelAnswer = (payload: unknown) => answerXml({ labelId: "", label: JSON.stringify(payload) });

/** A tiny MTurk holding these assignments. */
export function fakeMturk(assignments: Assignment[]): void {
  const byId = new Map(assignments.map((a) => [a.AssignmentId!, { ...a }]));
  mturkMock.on(ListAssignmentsForHITCommand).callsFake((input: ListAssignmentsForHITCommandInput) => {
    const all = [...byId.values()].filter(
      (a) => a.HITId === input.HITId && input.AssignmentStatuses!.includes(a.AssignmentStatus!),
    );
    const start = Number(input.NextToken ?? 0);
    const page = all.slice(start, start + 2);
    return {
      Assignments: page,
      NumResults: page.length,
      NextToken: start + 2 < all.length ? String(start + 2) : undefined,
    };
  });
  const settle = (status: "Approved" | "Rejected") => (input: { AssignmentId: string }) => {
    const a = byId.get(input.AssignmentId);
    if (a?.AssignmentStatus !== "Submitted")
      throw new RequestError({ message: `This operation can be called with a status of: Submitted`, $metadata: {} });
    a.AssignmentStatus = status;
    return {};
  };
  mturkMock.on(ApproveAssignmentCommand).callsFake(settle("Approved"));
  mturkMock.on(RejectAssignmentCommand).callsFake(settle("Rejected"));
}

/** One assignment as ListAssignmentsForHIT returns it (accepted 10:00, submitted 10:04 UTC). */
export function assignment(
  id: string,
  hitId: string,
  workerId: string,
  status: string,
  answer: string | undefined,
): Assignment {
  return {
    AssignmentId: id,
    HITId: hitId,
    WorkerId: workerId,
    AssignmentStatus: status as Assignment["AssignmentStatus"],
    AcceptTime: new Date("2025-03-01T10:00:00Z"),
    SubmitTime: new Date("2025-03-01T10:04:00Z"),
    Answer: answer,
  };
}
