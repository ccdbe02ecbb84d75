/**
 * The resume hints' command line, rebuilt from commander's parsed options: what a shell reads back
 * from it (split by a real `sh`) parses to the same options, defaults are not written out, and a
 * --max-cost can be replaced. The option shapes are the CLI's own: values, flags, a negated flag,
 * a variadic option, values with spaces and quotes.
 */
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { capStopMessage, commandLine, shellQuote } from "../../scripts/command-line.ts";
import { shellWords } from "../helpers/cli.ts";

/** A `socrates`-like program whose `run` action hands back its Command, parsed from `args`. */
function parsed(args: string[]): Command {
  const program = new Command().name("socrates").exitOverride();
  let seen: Command | undefined;
  program
    .command("bench")
    .command("run")
    .requiredOption("--plan <file>")
    .option("--max-cost <usd>")
    .option("--concurrency <n>", "units at once", "4")
    .option("--with-unmediated")
    .option("--no-with-unmediated")
    .option("--source <source...>")
    .option("--dry-run")
    .action((_opts, command: Command) => void (seen = command));
  program.parse(args, { from: "user" });
  return seen!;
}

describe("commandLine", () => {
  it("repeats every option given, shell-quoted, so the shell reads back the same options", () => {
    const given = [
      "bench",
      "run",
      "--plan",
      "my plans/it's.json",
      "--concurrency",
      "2",
      "--no-with-unmediated",
      "--source",
      "files",
      "seeds dir",
      "--dry-run",
    ];
    const command = parsed(given);
    const line = commandLine(command, {}, {});
    expect(line).toBe(
      `npx socrates bench run --plan 'my plans/it'\\''s.json' --concurrency 2 --no-with-unmediated --source files 'seeds dir' --dry-run`,
    );
    const words = shellWords(line);
    expect(words.slice(0, 2)).toEqual(["npx", "socrates"]);
    expect(parsed(words.slice(2)).opts()).toEqual(command.opts());
  });

  it("leaves defaults out, replaces or adds an option, and carries the database and configuration variables", () => {
    const command = parsed(["bench", "run", "--plan", "p.json", "--max-cost", "5"]);
    const env = { SOCRATES_DB: "/data/a b.db", SOCRATES_CONFIG: "cfg.json", HOME: "/root" };
    const line = commandLine(command, { set: { "max-cost": "12" } }, env);
    expect(line).toBe(
      "SOCRATES_DB='/data/a b.db' SOCRATES_CONFIG=cfg.json npx socrates bench run --plan p.json --max-cost 12",
    );
    expect(parsed(shellWords(line).slice(4)).opts()).toEqual({ plan: "p.json", maxCost: "12", concurrency: "4" });
    expect(
      commandLine(parsed(["bench", "run", "--plan", "p.json", "--with-unmediated"]), { set: { "max-cost": "3" } }, {}),
    ).toBe("npx socrates bench run --plan p.json --with-unmediated --max-cost 3");
  });

  it("quotes only what a shell would change", () => {
    expect(["a-b_c/d.json", "x=1", "", "$HOME", "a;b", "*", "it's"].map(shellQuote)).toEqual([
      "a-b_c/d.json",
      "x=1",
      "''",
      "'$HOME'",
      "'a;b'",
      "'*'",
      `'it'\\''s'`,
    ]);
  });

  it("after a spending-cap stop asks for a cap that covers the estimate left, never less than the cap given", () => {
    const command = parsed(["bench", "run", "--plan", "p.json", "--max-cost", "20"]);
    const higher = capStopMessage(command, { capUsd: 20, spentUsd: 19.5, leftUsd: 31.2 });
    expect(higher).toContain("the spending cap of $20.00 was reached after $19.5000");
    expect(higher).toContain("What is left is estimated at $31.20");
    expect(higher.endsWith("--plan p.json --max-cost 32")).toBe(true);
    expect(
      capStopMessage(command, { capUsd: 20, spentUsd: 19.5, leftUsd: 3 }).endsWith("--plan p.json --max-cost 20"),
    ).toBe(true);
  });
});
