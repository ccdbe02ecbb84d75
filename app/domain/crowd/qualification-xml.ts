/**
 * The crowd qualification test in MTurk's XML: a QuestionForm (what the worker sees) and an
 * AnswerKey (scored by MTurk; the qualification value is the percentage answered correctly), so
 * a worker's MTurk score is on the same 0–100 scale as the study's pass mark.
 */
import type { QualificationTest } from "../qualification.ts";

export const QUESTION_FORM_NS =
  "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd";
export const ANSWER_KEY_NS =
  "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd";
export const EXTERNAL_QUESTION_NS =
  "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2006-07-14/ExternalQuestion.xsd";

/** Escapes text for XML element content and attribute values. */
export function xmlEscape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

export function questionFormXml(test: QualificationTest): string {
  const questions = test.questions.map(
    (q) => `  <Question>
    <QuestionIdentifier>${xmlEscape(q.id)}</QuestionIdentifier>
    <IsRequired>true</IsRequired>
    <QuestionContent>
      <Text>${xmlEscape(q.passage)}</Text>
      <Text>${xmlEscape(q.question)}</Text>
    </QuestionContent>
    <AnswerSpecification>
      <SelectionAnswer>
        <StyleSuggestion>radiobutton</StyleSuggestion>
        <Selections>
${q.options.map((o) => `          <Selection><SelectionIdentifier>${xmlEscape(o.id)}</SelectionIdentifier><Text>${xmlEscape(o.text)}</Text></Selection>`).join("\n")}
        </Selections>
      </SelectionAnswer>
    </AnswerSpecification>
  </Question>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<QuestionForm xmlns="${QUESTION_FORM_NS}">
  <Overview>
    <Title>${xmlEscape(test.title)}</Title>
    <Text>${xmlEscape(test.instructions)}</Text>
  </Overview>
${questions.join("\n")}
</QuestionForm>
`;
}

export function answerKeyXml(test: QualificationTest): string {
  const questions = test.questions.map(
    (q) => `  <Question>
    <QuestionIdentifier>${xmlEscape(q.id)}</QuestionIdentifier>
    <AnswerOption>
      <SelectionIdentifier>${xmlEscape(q.answer)}</SelectionIdentifier>
      <AnswerScore>1</AnswerScore>
    </AnswerOption>
  </Question>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<AnswerKey xmlns="${ANSWER_KEY_NS}">
${questions.join("\n")}
  <QualificationValueMapping>
    <PercentageMapping>
      <MaximumSummedScore>${test.questions.length}</MaximumSummedScore>
    </PercentageMapping>
  </QualificationValueMapping>
</AnswerKey>
`;
}

/** The ExternalQuestion a published HIT carries: MTurk frames this URL and appends the worker's ids. */
export function externalQuestionXml(url: string, frameHeight = 0): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<ExternalQuestion xmlns="${EXTERNAL_QUESTION_NS}">
  <ExternalURL>${xmlEscape(url)}</ExternalURL>
  <FrameHeight>${frameHeight}</FrameHeight>
</ExternalQuestion>
`;
}
