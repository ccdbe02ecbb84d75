/**
 * No dead exports: every export of the app, the CLI, the database, demo and benchmark code is
 * imported somewhere (a test counts) or used in its own module (test/helpers/unused-exports.ts).
 */
import { describe, expect, it } from "vitest";
import { unusedExports } from "../helpers/unused-exports.ts";

describe("exports", () => {
  it("every export is used: imported by some module, or referred to in its own", () => {
    expect(unusedExports()).toEqual([]);
  });
});
