/**
 * Mechanical Turk requester-site templates: `${name}` placeholders that MTurk fills, per HIT,
 * from the input CSV's column of the same name — raw, with no escaping. So every value we put in
 * the CSV is HTML we built ourselves (see hit-render.ts), and the CSV header is read off the
 * template, never written by hand.
 *
 * The template sources (each task type's app/task-types/<id>/mturk.html) also carry one marker,
 * `<!-- socrates:guidelines -->`, which the export replaces with the study's Markdown guidelines
 * rendered to HTML, so the HIT and the web task show the same instructions.
 */

/** Where the guidelines go in a template source. */
export const GUIDELINES_MARKER = "<!-- socrates:guidelines -->";

/** MTurk's placeholder: `${name}`, the name being a CSV column (letters, digits, underscores). */
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The template's variable names, each once, in order of first use (this is the CSV header). */
export function templateVariables(html: string): string[] {
  const names: string[] = [];
  for (const match of html.matchAll(PLACEHOLDER)) if (!names.includes(match[1])) names.push(match[1]);
  return names;
}

export class TemplateFillError extends Error {
  constructor(readonly missing: string[]) {
    super(
      `no value for template variable${missing.length === 1 ? "" : "s"} ${missing.map((m) => "${" + m + "}").join(", ")}`,
    );
    this.name = "TemplateFillError";
  }
}

/**
 * Substitutes every `${name}` as MTurk does (the value goes in as it is), in one pass, so a value
 * can never introduce a placeholder of its own. Throws TemplateFillError naming every variable
 * that has no value; values the template does not use are ignored.
 */
export function fillTemplate(html: string, values: Readonly<Record<string, string>>): string {
  const missing = templateVariables(html).filter((name) => !Object.hasOwn(values, name));
  if (missing.length) throw new TemplateFillError(missing);
  return html.replace(PLACEHOLDER, (_, name: string) => values[name]);
}

/**
 * Puts the rendered guidelines where the source's marker is. The marker must occur exactly once,
 * so a template edited without it fails loudly instead of shipping HITs without instructions.
 */
export function insertGuidelines(templateSource: string, guidelinesHtml: string): string {
  const count = templateSource.split(GUIDELINES_MARKER).length - 1;
  if (count !== 1)
    throw new Error(`the template must contain the marker ${GUIDELINES_MARKER} exactly once (found ${count})`);
  return templateSource.replace(GUIDELINES_MARKER, () => guidelinesHtml);
}
