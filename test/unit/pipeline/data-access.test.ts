/**
 * The pipeline and LLM services build no queries: their data access goes through the repositories
 * in app/server/models (docs/architecture.md, "One data-access style").
 */
import { describe, expect, it } from "vitest";
import { importSpecifiers, readSource, sourceFiles } from "../../helpers/source-tree.ts";

describe("pipeline data access", () => {
  it("no module in app/server/pipeline or app/server/llm imports drizzle or the schema", () => {
    const offenders = sourceFiles("app/server/pipeline", "app/server/llm").filter((file) =>
      importSpecifiers(readSource(file)).some((s) => s.startsWith("drizzle-orm") || s.endsWith("db/schema.ts")),
    );
    expect(offenders).toEqual([]);
  });
});
