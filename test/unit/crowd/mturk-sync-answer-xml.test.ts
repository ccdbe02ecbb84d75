/** The Answer XML extractor `mturk sync` reads an assignment's label with. */
import { describe, expect, it } from "vitest";
import { decodeXmlText, labelFromAnswerXml, parseAnswerXml } from "../../../app/domain/crowd/answer-xml.ts";
import { xmlEscape } from "../../../app/domain/crowd/qualification-xml.ts";

const NS = "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd";

describe("Answer XML", () => {
  it("reads every FreeText answer by question identifier, decoding escaped JSON", () => {
    const payload = {
      kind: "consensus-snippet",
      topics: { PRICE: { score: 4, carriedForward: false, positions: { BUYER: "a", SELLER: "unclear" } } },
      note: `<b> & "q" 'a' é`,
    };
    const xml = `<?xml version="1.0" encoding="ASCII"?>
<QuestionFormAnswers xmlns="${NS}">
  <Answer>
    <QuestionIdentifier>labelId</QuestionIdentifier>
    <FreeText/>
  </Answer>
  <Answer>
    <QuestionIdentifier>label</QuestionIdentifier>
    <FreeText>${xmlEscape(JSON.stringify(payload)).replace("é", "&#233;")}</FreeText>
  </Answer>
</QuestionFormAnswers>`;
    const parsed = parseAnswerXml(xml);
    expect(parsed.ok && Object.fromEntries(parsed.answers)).toEqual({ labelId: "", label: JSON.stringify(payload) });
    expect(labelFromAnswerXml(xml)).toEqual({ ok: true, payload });
  });

  it("accepts namespace prefixes, attributes, CDATA and hexadecimal references", () => {
    const xml = `<q:QuestionFormAnswers xmlns:q="${NS}"><q:Answer><q:QuestionIdentifier>label</q:QuestionIdentifier><q:FreeText><![CDATA[{"kind":"ab-reactiveness",]]>&#x22;choice&#x22;:"B"}</q:FreeText></q:Answer></q:QuestionFormAnswers>`;
    expect(labelFromAnswerXml(xml)).toEqual({ ok: true, payload: { kind: "ab-reactiveness", choice: "B" } });
    expect(decodeXmlText("a &lt;&amp;&gt; <![CDATA[<&>]]> &#65;")).toBe("a <&> <&> A");
  });

  it("reports what it cannot read instead of guessing", () => {
    const doc = (inner: string) => `<QuestionFormAnswers xmlns="${NS}">${inner}</QuestionFormAnswers>`;
    const cases: [string | undefined, RegExp][] = [
      [undefined, /has no Answer/],
      ["  ", /has no Answer/],
      ["<Other/>", /not a QuestionFormAnswers document/],
      [doc(`<Answer><FreeText>x</FreeText></Answer>`), /no <QuestionIdentifier>/],
      [
        doc(`<Answer><QuestionIdentifier>label</QuestionIdentifier><FreeText>&nbsp;</FreeText></Answer>`),
        /unknown entity &nbsp;/,
      ],
      [doc(`<Answer><QuestionIdentifier>label</QuestionIdentifier><FreeText>x</Answer>`), /<FreeText> is not closed/],
      [
        doc(`<Answer><QuestionIdentifier>label</QuestionIdentifier><FreeText><![CDATA[x</FreeText></Answer>`),
        /unterminated CDATA/,
      ],
      [
        doc(`<Answer><QuestionIdentifier>other</QuestionIdentifier><FreeText>1</FreeText></Answer>`),
        /no "label" field \(fields: other\)/,
      ],
      [
        doc(`<Answer><QuestionIdentifier>label</QuestionIdentifier><FreeText>{"kind":</FreeText></Answer>`),
        /"label" field is not valid JSON/,
      ],
    ];
    for (const [xml, message] of cases) {
      const result = labelFromAnswerXml(xml);
      expect(result.ok, String(xml)).toBe(false);
      if (!result.ok) expect(result.message, String(xml)).toMatch(message);
    }
  });
});
