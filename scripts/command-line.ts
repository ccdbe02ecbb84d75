/**
 * The command a user typed, rebuilt from commander's parsed options, for the "resume with: …"
 * hints: every option given on the command line (and only those: defaults stay defaults), the
 * operands, and the environment variables that choose the database and the configuration, each
 * word shell-quoted so the line can be pasted and run as printed.
 */
import type { Command, Option } from "commander";

/** Environment variables that change what a command reads or writes; repeated when set. */
const CARRIED_ENV = ["SOCRATES_DB", "SOCRATES_CONFIG"] as const;

/** A word as a POSIX shell reads it back: bare when it is plainly safe, else single-quoted. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The words of one option as given (nothing when it was not given on the command line). */
function optionWords(command: Command, option: Option): string[] {
  const key = option.attributeName();
  if (command.getOptionValueSource(key) !== "cli") return [];
  const value: unknown = command.getOptionValue(key);
  const flag = option.long ?? option.short!;
  // A --no-x option and its --x share one value: each repeats itself only for its own value.
  if (option.negate) return value === false ? [flag] : [];
  if (value === true) return [flag]; // a flag, or an optional value given bare
  if (value === false || value === undefined || value === null) return [];
  const values = Array.isArray(value) ? value.map(String) : [String(value)];
  return [flag, ...values];
}

function optionName(option: Option): string {
  return (option.long ?? option.short ?? "").replace(/^-+/, "");
}

export interface CommandLineChange {
  /** Options to give this value instead (by long name without dashes, e.g. "max-cost"); added when absent. */
  set?: Record<string, string>;
}

/** The command line of `command` as parsed, with `change` applied: `npx socrates …`, shell-quoted. */
export function commandLine(
  command: Command,
  change: CommandLineChange = {},
  env: Record<string, string | undefined> = process.env,
): string {
  const chain: Command[] = [];
  for (let c: Command | null = command; c; c = c.parent) chain.unshift(c);
  const set = new Map(Object.entries(change.set ?? {}));
  const words: string[] = [];
  for (const [i, c] of chain.entries()) {
    if (i > 0) words.push(c.name());
    for (const option of c.options) {
      const name = optionName(option);
      if (set.has(name)) continue;
      words.push(...optionWords(c, option));
    }
  }
  for (const [name, value] of set) words.push(`--${name}`, value);
  // Operands last, after "--" when one starts with a dash, so none is read as an option.
  const operands = command.args.map(String);
  if (operands.some((a) => a.startsWith("-"))) words.push("--");
  words.push(...operands);
  const assignments = CARRIED_ENV.filter((name) => env[name] !== undefined && env[name] !== "").map(
    (name) => `${name}=${shellQuote(env[name]!)}`,
  );
  return [...assignments, "npx", chain[0].name(), ...words.map(shellQuote)].join(" ");
}

/**
 * The message of a command stopped by its spending cap (`--max-cost`), whose resume command asks
 * for a cap that covers the estimate of what is left, in whole dollars rounded up, never lower than
 * the cap given: the cap counts one command's new calls, so the same cap would go on, only slower.
 */
export function capStopMessage(command: Command, spend: { capUsd: number; spentUsd: number; leftUsd: number }): string {
  const next = Math.max(Math.ceil(spend.leftUsd), spend.capUsd);
  return (
    `stopped: the spending cap of $${spend.capUsd.toFixed(2)} was reached after $${spend.spentUsd.toFixed(4)}; nothing half done was stored. ` +
    `What is left is estimated at $${spend.leftUsd.toFixed(2)} (the cap counts this command's new calls only). ` +
    `Resume with: ${commandLine(command, { set: { "max-cost": String(next) } })}`
  );
}
