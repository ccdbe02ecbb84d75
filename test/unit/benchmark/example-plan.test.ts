/** benchmark.example.json (documented in docs/benchmark.md) is a valid plan that fits socrates.config.example.json. */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPlanFile } from "../../../app/server/benchmark/plan-file.server.ts";
import { checkPlanAgainstConfig } from "../../../app/server/benchmark/plan-check.server.ts";
import { loadLlmConfig } from "../../../app/server/llm/config.server.ts";

const root = resolve(import.meta.dirname, "../../..");

describe("benchmark.example.json", () => {
  it("validates, and names only endpoints and roles the example configuration defines", () => {
    const loaded = loadPlanFile(resolve(root, "benchmark.example.json"));
    expect(loaded.plan.mediators.map((m) => m.mode)).toEqual(["generic", "social", "generic"]);
    expect(() =>
      checkPlanAgainstConfig(loaded.plan, loaded.source, loadLlmConfig(resolve(root, "socrates.config.example.json"))),
    ).not.toThrow();
  });
});
