/**
 * No dead exports: every export of the app, the CLI, the database, demo and benchmark code is
 * imported somewhere (a test counts) or used in its own module (test/helpers/unused-exports.ts).
 */
import { describe, expect, it } from "vitest";
import { unusedExports } from "../helpers/unused-exports.ts";

/**
 * Known and left on purpose, by name: the report's table and figure id lists, which the report
 * registry of issue 30 replaces (drop them from this list when that lands).
 */
const KNOWN_UNUSED = new Set(["TABLE_IDS", "FIGURE_IDS"]);

describe("exports", () => {
  it("every export is used: imported by some module, or referred to in its own", () => {
    const unused = unusedExports().filter((entry) => !KNOWN_UNUSED.has(entry.split(" ")[1]));
    expect(unused).toEqual([]);
  });
});
