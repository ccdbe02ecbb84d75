/**
 * The one-pass checks of `socrates stats` data files (scripts/commands/stats-files.ts) against the
 * zod schemas they replaced, kept here as the reference: for any JSON file, the same data back or
 * the same error (file, JSON path of the first three problems, their words, how many more).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { readAlphaFile, readCorrFile } from "../../../scripts/commands/stats-files.ts";

const ratingCell = z.union([z.number().finite(), z.string(), z.null()], {
  errorMap: () => ({ message: "expected a number, string or null" }),
});
const alphaFile = z.object({
  data: z.array(z.array(ratingCell, { errorMap: () => ({ message: "expected an array of ratings (one per unit)" }) }), {
    errorMap: () => ({ message: "expected an array of rater rows" }),
  }),
});
const finiteNumber = z
  .number({ errorMap: () => ({ message: "expected a finite number" }) })
  .finite("expected a finite number");
const corrFile = z.object({
  x: z.array(finiteNumber, { errorMap: () => ({ message: "expected an array of numbers" }) }),
  y: z.array(finiteNumber, { errorMap: () => ({ message: "expected an array of numbers" }) }),
});

/** What the zod-based reader answered: the parsed value or the error message. */
function zodAnswer(path: string, json: unknown, schema: z.ZodType): { value: unknown } | { error: string } {
  const parsed = schema.safeParse(json);
  if (parsed.success) return { value: parsed.data };
  const at = (p: (string | number)[]) => "$" + p.map((k) => (typeof k === "number" ? `[${k}]` : `.${k}`)).join("");
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${at(i.path)}: ${i.message}`);
  const more = parsed.error.issues.length > 3 ? ` (and ${parsed.error.issues.length - 3} more)` : "";
  return { error: `${path}: ${issues.join("; ")}${more}` };
}

function answer<T>(read: () => T): { value: T } | { error: string } {
  try {
    return { value: read() };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

const dir = mkdtempSync(join(tmpdir(), "socrates-stats-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `text` and returns its path; `1e999` in a file parses to Infinity, which JSON.stringify cannot write. */
function file(text: string): string {
  const path = join(dir, "f.json");
  writeFileSync(path, text);
  return path;
}

const INFINITE = "__infinite__";
const toText = (value: unknown) => JSON.stringify(value).replaceAll(`"${INFINITE}"`, "1e999");
const cell = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()) },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.oneof(fc.boolean(), fc.constant(INFINITE), fc.constant({}), fc.constant([1])) },
);
const list = (item: fc.Arbitrary<unknown>) => fc.oneof({ weight: 5, arbitrary: fc.array(item) }, fc.jsonValue());
/** Mostly files of the right shape with a few bad cells, sometimes anything JSON can hold. */
const anyFile = (keys: string[], item: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.dictionary(fc.constantFrom(...keys, "other"), item, { minKeys: 0, maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.jsonValue() },
  );

describe("stats data files, checked in one pass", () => {
  it("answers an alpha file as the zod schema did", () => {
    fc.assert(
      fc.property(anyFile(["data"], list(list(cell))), (json) => {
        const text = toText(json);
        const path = file(text);
        expect(answer(() => ({ data: readAlphaFile(path) }))).toEqual(zodAnswer(path, JSON.parse(text), alphaFile));
      }),
      { numRuns: 400 },
    );
  });

  it("answers a correlation file as the zod schema did", () => {
    const number = fc.oneof(
      { weight: 8, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
      { weight: 1, arbitrary: cell },
    );
    fc.assert(
      fc.property(anyFile(["x", "y"], list(number)), (json) => {
        const text = toText(json);
        const path = file(text);
        expect(answer(() => readCorrFile(path))).toEqual(zodAnswer(path, JSON.parse(text), corrFile));
      }),
      { numRuns: 400 },
    );
  });

  it("names the first bad cells, counts the rest, and says what the top level was", () => {
    const bad = file('{"data": [[1, "a", null, true], [1e999, {}, 2, false], 7]}');
    expect(() => readAlphaFile(bad)).toThrow(
      `${bad}: $.data[0][3]: expected a number, string or null; $.data[1][0]: Number must be finite; ` +
        "$.data[1][1]: expected a number, string or null (and 2 more)",
    );
    const top = file("[[1, 2]]");
    expect(() => readAlphaFile(top)).toThrow(`${top}: $: Expected object, received array`);
    const corr = file('{"x": [1, "2"], "z": []}');
    expect(() => readCorrFile(corr)).toThrow(
      `${corr}: $.x[1]: expected a finite number; $.y: expected an array of numbers`,
    );
  });
});
