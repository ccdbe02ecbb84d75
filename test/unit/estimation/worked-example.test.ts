/**
 * The worked example of docs/estimation.md, read from the page: the `estimation-example` block's
 * inputs are run through the estimators and every value it states is checked (to the digits
 * shown after "≈", else to 12 digits), so the page and the code cannot drift apart.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  classicalMean,
  labelsToHalfWidth,
  type MeanEstimate,
  ppiMean,
} from "../../../app/domain/estimation/mean-estimators.ts";

const DOC = resolve("docs/estimation.md");

/** The one ```estimation-example block: `key: value` per line. */
function readExample(text: string): Map<string, string> {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.trim() === "```estimation-example");
  if (start < 0) throw new Error("docs/estimation.md has no estimation-example block");
  const fields = new Map<string, string>();
  for (let i = start + 1; lines[i].trim() !== "```"; i++) {
    const match = /^([^:]+):(.*)$/.exec(lines[i]);
    if (!match) throw new Error(`docs/estimation.md:${i + 1}: expected "key: value", got "${lines[i]}"`);
    fields.set(match[1].trim(), match[2].trim());
  }
  return fields;
}

const example = readExample(readFileSync(DOC, "utf8"));

function field(key: string): string {
  const value = example.get(key);
  if (value === undefined) throw new Error(`docs/estimation.md example: no "${key}"`);
  return value;
}

const numbers = (key: string) => field(key).split(/\s+/).map(Number);

/** A stated value: "≈ 0.1107" to the digits shown, "0.575" to 12 digits. */
function expectStated(key: string, actual: number): void {
  const text = field(key);
  const approx = text.startsWith("≈");
  const body = approx ? text.slice(1).trim() : text;
  const digits = approx ? (body.split(".")[1] ?? "").length : 12;
  expect(Number.isFinite(Number(body)), `${key}: "${text}"`).toBe(true);
  expect(Math.abs(actual - Number(body)), `${key}: computed ${actual}, page says ${text}`).toBeLessThanOrEqual(
    0.5 * 10 ** -digits,
  );
}

describe("docs/estimation.md worked example", () => {
  const y = numbers("human, labelled runs");
  const fl = numbers("judge, labelled runs");
  const fu = numbers("judge, other runs");
  const target = Number(field("target half-width"));

  it("states inputs of matching sizes", () => {
    expect(y.length).toBe(fl.length);
    expect(y.length).toBeGreaterThan(1);
    expect(fu.length).toBeGreaterThan(0);
    for (const v of [...y, ...fl, ...fu, target]) expect(Number.isFinite(v)).toBe(true);
  });

  it("recomputes the judge-only, human-only and PPI++ numbers and the projected labels", () => {
    const all = [...fl, ...fu];
    expectStated("judge-only mean", all.reduce((s, v) => s + v, 0) / all.length);
    const human = classicalMean(y) as MeanEstimate;
    expectStated("human-only estimate", human.estimate);
    expectStated("human-only half-width", human.halfWidth);
    const ppi = ppiMean({ y, fLabelled: fl, fUnlabelled: fu }) as MeanEstimate;
    expectStated("PPI++ lambda", ppi.lambda);
    expectStated("PPI++ estimate", ppi.estimate);
    expectStated("PPI++ half-width", ppi.halfWidth);
    expect(labelsToHalfWidth(human, target)).toBe(Number(field("more labels, human-only")));
    expect(labelsToHalfWidth(ppi, target)).toBe(Number(field("more labels, PPI++")));
  });
});
