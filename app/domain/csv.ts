/** A plain decimal number (`-0.5`, `+3`, `1e-3`): a spreadsheet reads it as a number, never a formula. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Formula injection guard (docs/formats.md): a cell a spreadsheet would run as a formula
 * (starting with =, +, -, @, a tab or a carriage return) gets a leading `'`, which spreadsheets
 * show as text. Plain numbers stay as they are.
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

export interface CsvOptions {
  /**
   * Write cells exactly as given, without the formula guard: only for files another program
   * reads as data and shows to people (MTurk's batch input.csv), never for files meant for a
   * spreadsheet.
   */
  verbatim?: boolean;
  /** Quote every field, as MTurk writes its files; otherwise only fields that need it are quoted. */
  quoteAll?: boolean;
}

/**
 * The one CSV field writer of the app (RFC 4180): fields with commas, quotes or line breaks (`\n`
 * or `\r`) are quoted, quotes doubled; formula-leading text neutralised. Spaces are kept as they are.
 */
export function csvField(value: unknown, options: CsvOptions = {}): string {
  if (value === null || value === undefined) return "";
  const raw = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  const text = options.verbatim ? raw : neutraliseFormula(raw);
  return options.quoteAll || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record: its fields written by csvField, joined by commas (no line end). */
export function csvRecord(fields: readonly unknown[], options: CsvOptions = {}): string {
  return fields.map((field) => csvField(field, options)).join(",");
}

/** A whole file: the header and the rows as records, each ended by CRLF. */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly unknown[])[],
  options: CsvOptions = {},
): string {
  return [header, ...rows].map((row) => csvRecord(row, options)).join("\r\n") + "\r\n";
}

/** One parsed record and the 1-based line of the file it starts on (quoted fields may span lines). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export interface ParsedCsv {
  header: string[];
  /** Data records after the header; blank lines are skipped. */
  records: CsvRecord[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "CsvSyntaxError";
  }
}

/**
 * RFC 4180 CSV reading, as spreadsheet tools and MTurk write it: quoted fields may hold commas,
 * doubled quotes and line breaks; CRLF or LF line ends; an optional UTF-8 byte-order mark.
 * Every record must have as many fields as the header. Throws CsvSyntaxError with the line.
 */
export function parseCsv(text: string): ParsedCsv {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  const n = source.length;
  // Fields are sliced out whole, not built a character at a time: results files run to many MB.
  const newlinesIn = (from: number, to: number) => {
    let count = 0;
    for (let k = source.indexOf("\n", from); k !== -1 && k < to; k = source.indexOf("\n", k + 1)) count++;
    return count;
  };
  let line = 1;
  let i = 0;
  while (i < n) {
    const startLine = line;
    const fields: string[] = [];
    for (;;) {
      let value: string;
      if (source[i] === '"') {
        const quoteLine = line;
        const parts: string[] = [];
        let from = i + 1;
        for (;;) {
          const q = source.indexOf('"', from);
          if (q === -1) throw new CsvSyntaxError(quoteLine, "a quoted field is never closed");
          parts.push(source.slice(from, q));
          if (source[q + 1] === '"') {
            parts.push('"');
            from = q + 2;
            continue;
          }
          line += newlinesIn(i, q);
          i = q + 1;
          break;
        }
        value = parts.join("");
        const after = source[i];
        if (i < n && after !== "," && after !== "\n" && after !== "\r") {
          throw new CsvSyntaxError(line, `unexpected text after a closing quote (field ${fields.length + 1})`);
        }
      } else {
        let end = i;
        while (end < n) {
          const c = source.charCodeAt(end);
          if (c === 44 || c === 10 || c === 13) break; // , \n \r
          if (c === 34) throw new CsvSyntaxError(line, `a quote inside an unquoted field (field ${fields.length + 1})`);
          end++;
        }
        value = source.slice(i, end);
        i = end;
      }
      fields.push(value);
      if (i >= n) break;
      if (source[i] === ",") {
        i++;
        continue;
      }
      if (source[i] === "\r") i++;
      if (source[i] === "\n") i++;
      line++;
      break;
    }
    if (!(fields.length === 1 && fields[0] === "")) records.push({ line: startLine, fields });
  }
  if (records.length === 0) throw new CsvSyntaxError(1, "the file is empty (no header row)");
  const [head, ...rest] = records;
  for (const r of rest) {
    if (r.fields.length !== head.fields.length) {
      throw new CsvSyntaxError(r.line, `${r.fields.length} fields, but the header has ${head.fields.length}`);
    }
  }
  return { header: head.fields, records: rest };
}

/** Records as objects keyed by header name. */
export function csvObjects(parsed: ParsedCsv): { line: number; values: Record<string, string> }[] {
  return parsed.records.map((r) => ({
    line: r.line,
    values: Object.fromEntries(parsed.header.map((h, i) => [h, r.fields[i]])),
  }));
}
