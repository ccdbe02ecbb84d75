/**
 * The data files of `socrates stats`, read and checked in one pass: a tight loop over each parsed
 * array that allocates nothing per cell (a zod schema per cell cost more than the statistic
 * itself: 1.2 s for 2 × 1M ratings). A problem is named by file and JSON path, in reading order,
 * the first three spelled out and the rest counted, in the words the zod schemas used before.
 */
import type { RatingValue } from "../../app/domain/stats/krippendorff.ts";
import { readJsonFile, UserError } from "../cli-kit.ts";

const SHOWN = 3;

/** The problems of one file in reading order: the first few kept as text, all of them counted. */
class Problems {
  private readonly shown: string[] = [];
  private count = 0;

  add(path: string, message: string): void {
    if (this.count++ < SHOWN) this.shown.push(`${path}: ${message}`);
  }

  throwIfAny(file: string): void {
    if (this.count === 0) return;
    const more = this.count > SHOWN ? ` (and ${this.count - SHOWN} more)` : "";
    throw new UserError(`${file}: ${this.shown.join("; ")}${more}`);
  }
}

/** A JSON object (not an array or null), or a problem at `$` worded as zod words it. */
function topObject(json: unknown, problems: Problems): Record<string, unknown> | undefined {
  if (typeof json === "object" && json !== null && !Array.isArray(json)) return json as Record<string, unknown>;
  problems.add(
    "$",
    `Expected object, received ${json === null ? "null" : Array.isArray(json) ? "array" : typeof json}`,
  );
  return undefined;
}

/** Index of the first cell of `row` from `from` on that is not a finite number, a string or null; −1 if none. */
function badRating(row: unknown[], from: number): number {
  for (let u = from; u < row.length; u++) {
    const v = row[u];
    if (typeof v === "number" ? !Number.isFinite(v) : v !== null && typeof v !== "string") return u;
  }
  return -1;
}

/** Index of the first cell of `xs` from `from` on that is not a finite number; −1 if none. */
function badNumber(xs: unknown[], from: number): number {
  for (let i = from; i < xs.length; i++) {
    const v = xs[i];
    if (typeof v !== "number" || !Number.isFinite(v)) return i;
  }
  return -1;
}

/** Adds a problem for every cell `bad` finds in `cells`, named `${path}[i]`. */
function scan(cells: unknown[], path: string, bad: typeof badNumber, problems: Problems, message?: string): void {
  for (let i = bad(cells, 0); i >= 0; i = bad(cells, i + 1)) {
    // 1e999 parses to Infinity: a number of the right type that fails only the finiteness check.
    const infinite = typeof cells[i] === "number";
    problems.add(
      `${path}[${i}]`,
      message ?? (infinite ? "Number must be finite" : "expected a number, string or null"),
    );
  }
}

/** `{"data": [[...], ...]}`: rater rows of numbers, strings and nulls (row lengths are the statistic's check). */
export function readAlphaFile(file: string): RatingValue[][] {
  const problems = new Problems();
  const top = topObject(readJsonFile(file), problems);
  const rows = top?.data;
  if (top && !Array.isArray(rows)) problems.add("$.data", "expected an array of rater rows");
  if (Array.isArray(rows)) {
    for (let r = 0; r < rows.length; r++) {
      const row: unknown = rows[r];
      if (!Array.isArray(row)) problems.add(`$.data[${r}]`, "expected an array of ratings (one per unit)");
      else scan(row, `$.data[${r}]`, badRating, problems);
    }
  }
  problems.throwIfAny(file);
  return rows as RatingValue[][];
}

/** `{"x": [...], "y": [...]}`: two arrays of finite numbers (equal lengths are the caller's check). */
export function readCorrFile(file: string): { x: number[]; y: number[] } {
  const problems = new Problems();
  const top = topObject(readJsonFile(file), problems);
  if (top) {
    for (const key of ["x", "y"]) {
      const xs = top[key];
      if (!Array.isArray(xs)) problems.add(`$.${key}`, "expected an array of numbers");
      else scan(xs, `$.${key}`, badNumber, problems, "expected a finite number");
    }
  }
  problems.throwIfAny(file);
  return { x: top!.x as number[], y: top!.y as number[] };
}
