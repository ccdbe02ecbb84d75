import { describe, expect, it } from "vitest";
import { leavesProcessAlone, sharedWorkerTests } from "../../harness/test-isolation.ts";

describe("which unit test files share a worker", () => {
  it("keeps a process of its own for a file that touches anything process-wide", () => {
    for (const line of [
      'process.env.SOCRATES_X = "1";',
      "process.chdir(dir);",
      "process.exitCode = undefined;",
      'process.on("exit", close);',
      'vi.mock("../app/server/db.server.ts");',
      'vi.stubEnv("CI", "true");',
      'vi.spyOn(console, "log");',
      "vi.useFakeTimers();",
      "globalThis.fetch = fake;",
      "const db = await getDb();",
    ])
      expect(leavesProcessAlone(`it("x", () => { ${line} });`), line).toBe(false);
  });

  it("lets a file share when it only builds its own data, databases and child processes", () => {
    const source = `import { tempDb } from "../harness/temp-db.ts";
it("x", async () => { const db = await tempDb(); spawn(process.execPath, ["cli.js"]); process.kill(pid); });`;
    expect(leavesProcessAlone(source)).toBe(true);
  });

  it("sorts the real files into the two groups", () => {
    const shared = sharedWorkerTests("test/unit");
    expect(shared).toContain("test/unit/stats/alpha-kernels.test.ts");
    expect(shared).not.toContain("test/unit/cli-in-process.test.ts");
    expect(shared).not.toContain("test/unit/test-isolation.test.ts");
    expect(shared.every((f) => f.startsWith("test/unit/") && /\.test\.tsx?$/.test(f))).toBe(true);
  });
});
