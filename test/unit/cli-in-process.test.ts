/**
 * runCliInProcess (test/helpers/cli-in-process.ts), which several CLI tests use instead of a child
 * process: it answers as the built CLI in a child process does, and leaves the test's process as
 * it found it (exit code, environment, console), also after a failing command.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { runCliInProcess } from "../helpers/cli-in-process.ts";

describe("runCliInProcess", () => {
  it("gives the same status, output and error as the built CLI, and puts the process back", async () => {
    const log = console.log;
    const before = process.exitCode;
    const config = process.env.SOCRATES_CONFIG;
    const env = { SOCRATES_CONFIG: "/nonexistent/in-process.json" };
    for (const args of [
      ["stats", "corr", "--file", "/nonexistent/p.json"],
      ["stats", "--help"],
    ]) {
      const inProcess = await runCliInProcess(args, env);
      const child = runCli(args, env);
      expect(inProcess, args.join(" ")).toEqual({ status: child.status, stdout: child.stdout, stderr: child.stderr });
    }
    expect((await runCliInProcess(["stats", "corr", "--file", "/nonexistent/p.json"])).status).toBe(2);
    expect(process.exitCode).toBe(before);
    expect(process.env.SOCRATES_CONFIG).toBe(config);
    expect(console.log).toBe(log);
  });
});
