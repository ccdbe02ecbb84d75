/**
 * Reads the Answer of an MTurk assignment: a QuestionFormAnswers document with one <Answer> per
 * submitted field, each a <QuestionIdentifier> and a <FreeText> (an ExternalQuestion's fields
 * all arrive as FreeText). The format is small and fixed, so a careful extractor does instead
 * of an XML library: it accepts namespace prefixes, CDATA and character references, and reports
 * anything else it cannot read rather than guessing.
 */

export type AnswerXmlResult = { ok: true; answers: Map<string, string> } | { ok: false; message: string };

/** The field our ExternalQuestion page posts the label payload in (JSON). */
export const LABEL_ANSWER_FIELD = "label";

const NAMED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Decodes XML character data: CDATA sections kept verbatim, entity and character references resolved. */
export function decodeXmlText(raw: string): string {
  let out = "";
  let rest = raw;
  while (rest.length) {
    const cdata = rest.indexOf("<![CDATA[");
    const textPart = cdata === -1 ? rest : rest.slice(0, cdata);
    out += textPart.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
      if (ref.startsWith("#x")) return String.fromCodePoint(parseInt(ref.slice(2), 16));
      if (ref.startsWith("#")) return String.fromCodePoint(parseInt(ref.slice(1), 10));
      const named = NAMED_ENTITIES[ref];
      if (named === undefined) throw new Error(`unknown entity ${whole}`);
      return named;
    });
    if (cdata === -1) break;
    const end = rest.indexOf("]]>", cdata);
    if (end === -1) throw new Error("unterminated CDATA section");
    out += rest.slice(cdata + 9, end);
    rest = rest.slice(end + 3);
  }
  return out;
}

/** The content of the first `<name>` element (any namespace prefix) in `xml`, or null when absent. */
function elementText(xml: string, name: string): string | null {
  const open = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${name}(?:\\s[^>]*)?(/?)>`);
  const match = open.exec(xml);
  if (!match) return null;
  if (match[1] === "/") return "";
  const start = match.index + match[0].length;
  const close = new RegExp(`</(?:[A-Za-z_][\\w.-]*:)?${name}\\s*>`).exec(xml.slice(start));
  if (!close) throw new Error(`<${name}> is not closed`);
  return xml.slice(start, start + close.index);
}

/** Every answer in a QuestionFormAnswers document, by question identifier. */
export function parseAnswerXml(xml: string | undefined | null): AnswerXmlResult {
  if (!xml || xml.trim() === "") return { ok: false, message: "the assignment has no Answer" };
  if (!/<(?:[A-Za-z_][\w.-]*:)?QuestionFormAnswers[\s>]/.test(xml))
    return { ok: false, message: "the Answer is not a QuestionFormAnswers document" };
  const answers = new Map<string, string>();
  const blocks = /<((?:[A-Za-z_][\w.-]*:)?)Answer(?:\s[^>]*)?>([\s\S]*?)<\/\1Answer\s*>/g;
  try {
    for (const [, , body] of xml.matchAll(blocks)) {
      const id = elementText(body, "QuestionIdentifier");
      if (id === null) return { ok: false, message: "an <Answer> has no <QuestionIdentifier>" };
      const text = elementText(body, "FreeText");
      // Selection answers (not used by our pages) carry no FreeText; they are left out.
      if (text !== null) answers.set(decodeXmlText(id).trim(), decodeXmlText(text));
    }
  } catch (err) {
    return { ok: false, message: `the Answer XML cannot be read: ${(err as Error).message}` };
  }
  return { ok: true, answers };
}

/** The label payload an ExternalQuestion submit carried: the `label` field, parsed as JSON. */
export function labelFromAnswerXml(
  xml: string | undefined | null,
): { ok: true; payload: unknown } | { ok: false; message: string } {
  const parsed = parseAnswerXml(xml);
  if (!parsed.ok) return parsed;
  const raw = parsed.answers.get(LABEL_ANSWER_FIELD);
  if (raw === undefined) {
    const fields = [...parsed.answers.keys()];
    return {
      ok: false,
      message: `the Answer has no "${LABEL_ANSWER_FIELD}" field (fields: ${fields.length ? fields.join(", ") : "none"})`,
    };
  }
  try {
    return { ok: true, payload: JSON.parse(raw) };
  } catch (err) {
    return { ok: false, message: `the "${LABEL_ANSWER_FIELD}" field is not valid JSON (${(err as Error).message})` };
  }
}
