/**
 * The `socrates` command line: one program, one module per command group under scripts/commands/
 * (a crowd channel's group is its folder's command.server.ts, app/crowd-channels/<id>/).
 * The modules are imported on demand: a command loads only its own module (and what it imports),
 * so `socrates stats corr` never loads the AWS SDK or vega. The built CLI (scripts/build-cli.mjs)
 * carries a manifest of every top-level command's name and help line (commands.json), from which
 * the top-level help and the "unknown command" error are answered without loading any module. From
 * source (no manifest: tsx, or a test calling `main` in its own process) a command loads the module
 * of its own name when that registers it, and every module otherwise.
 */
import { readFileSync } from "node:fs";
import { Command, CommanderError, Help } from "commander";
import { CHANNEL_COMMANDS } from "../app/crowd-channels/commands.server.ts";
import { CHANNEL_FOLDERS, type CommandFolder } from "../app/crowd-channels/registry.ts";
import { EXIT_BAD_INPUT, UserError } from "./cli-kit.ts";
import { disableColour, paletteFor } from "./colour.ts";

type Register = (program: Command) => void;

/** Each module of commands by a short key, loaded when one of its commands runs. */
const COMMAND_MODULES: Record<string, () => Promise<Register>> = {
  data: async () => (await import("./commands/data.ts")).registerDataCommands,
  stats: async () => (await import("./commands/stats.ts")).registerStatsCommands,
  evaluate: async () => (await import("./commands/evaluate.ts")).registerEvaluateCommands,
  simulate: async () => (await import("./commands/simulate.ts")).registerSimulateCommands,
  fidelity: async () => (await import("./commands/fidelity.ts")).registerFidelityCommands,
  curate: async () => (await import("./commands/curate.ts")).registerCurateCommands,
  probe: async () => (await import("./commands/probe.ts")).registerProbeCommands,
  benchmark: async () => (await import("./commands/benchmark.ts")).registerBenchmarkCommands,
  llm: async () => (await import("./commands/llm.ts")).registerLlmCommands,
  "mock-llm": async () => (await import("./commands/mock-llm.ts")).registerMockLlmCommands,
  report: async () => (await import("./commands/report.ts")).registerReportCommand,
  promediate: async () => (await import("./commands/promediate.ts")).registerPromediateCommands,
  "validate-evaluator": async () => (await import("./commands/validate-evaluator.ts")).registerValidateEvaluatorCommand,
  estimate: async () => (await import("./commands/estimate.ts")).registerEstimateCommand,
  // Each crowd channel folder's command (mturk, prolific), by the name its descriptor gives.
  ...Object.fromEntries(
    CHANNEL_FOLDERS.flatMap((f) => (f.command ? [[f.command.name, CHANNEL_COMMANDS[f.id as CommandFolder]]] : [])),
  ),
};

/** One top-level command as the top-level help lists it, and the module that registers it. */
export interface CommandEntry {
  names: string[];
  module: string;
  term: string;
  description: string;
}

/** What every long command does on the terminal (docs/pipeline.md, "Progress, Ctrl-C and colour"). */
const OUTPUT_HELP = `
Long commands (simulate, evaluate, benchmark run, validate-evaluator) show one progress line on
stderr, e.g. "simulate 12/160 runs · 3.1 runs/min · ETA 4 min · $0.12 spent": redrawn in place on a
terminal, printed every 5 s (SOCRATES_PROGRESS_SECONDS) and at the end in a log.
Ctrl-C in simulate, evaluate and benchmark run starts nothing new, drops the work in flight (its
answered calls stay cached), prints one "interrupted" line, the summary and the command that resumes,
and exits with code 130.
Colour is on for a terminal only; NO_COLOR or --no-color turn it off, FORCE_COLOR turns it on.`;

function createProgram(): Command {
  return new Command()
    .name("socrates")
    .description("SoCRATES Studio: validate LLM-mediation evaluators against human labels and run the benchmark")
    .option("--no-color", "no colour in the output (also off when NO_COLOR is set or the output is not a terminal)")
    .addHelpText("after", OUTPUT_HELP)
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
}

/** Loads every module and lists its top-level commands (the build writes this as commands.json). */
export async function describeCommands(): Promise<CommandEntry[]> {
  const entries: CommandEntry[] = [];
  for (const [module, load] of Object.entries(COMMAND_MODULES)) {
    const program = createProgram();
    (await load())(program);
    const help = program.createHelp();
    for (const c of program.commands) {
      entries.push({
        names: [c.name(), ...c.aliases()],
        module,
        term: help.subcommandTerm(c),
        description: help.subcommandDescription(c),
      });
    }
  }
  return entries;
}

/** The manifest next to the built CLI; undefined when running from source. */
function readManifest(): CommandEntry[] | undefined {
  try {
    return JSON.parse(readFileSync(new URL("commands.json", import.meta.url), "utf8")) as CommandEntry[];
  } catch {
    return undefined;
  }
}

/** The command a command line asks for: its first word, or the word after `help`. */
function requestedCommand(argv: string[]): string | undefined {
  const [first, second] = argv.slice(2).filter((word) => word !== "--no-color"); // the one program-wide option
  return first === "help" ? second : first;
}

/** Stand-ins for the top-level help: each command's name and help line, no options or action. */
function registerStandIns(program: Command, manifest: CommandEntry[]): void {
  const terms = new Map(manifest.map((e) => [e.names[0], e.term]));
  program.configureHelp({
    subcommandTerm(this: Help, cmd: Command): string {
      return terms.get(cmd.name()) ?? Help.prototype.subcommandTerm.call(this, cmd);
    },
  });
  for (const entry of manifest) {
    const [name, ...aliases] = entry.names;
    program.command(name).aliases(aliases).description(entry.description);
  }
}

/** Registers what `argv` needs: the one module it names, or, without a manifest, maybe all of them. */
async function registerFor(program: Command, argv: string[]): Promise<void> {
  const manifest = readManifest();
  const wanted = requestedCommand(argv);
  const entry = manifest?.find((e) => wanted !== undefined && e.names.includes(wanted));
  if (entry) return (await COMMAND_MODULES[entry.module]())(program);
  if (manifest) return registerStandIns(program, manifest);
  // From source: the module of the same name when it registers the command (most do), else all.
  const own = wanted !== undefined && Object.hasOwn(COMMAND_MODULES, wanted) ? COMMAND_MODULES[wanted] : undefined;
  const named = own && (await own());
  if (named && registers(named, wanted!)) return named(program);
  for (const load of Object.values(COMMAND_MODULES)) (await load())(program);
}

/** Whether `register` adds a top-level command called `name` (tried on a program of its own). */
function registers(register: Register, name: string): boolean {
  const trial = createProgram();
  register(trial);
  return trial.commands.some((c) => c.name() === name || c.aliases().includes(name));
}

/** The one-line message for a full disk, or null; loaded only on an error (it reads the database settings). */
async function diskFullAnswer(err: unknown): Promise<string | null> {
  return (await import("./disk-full.ts")).diskFullMessage(err);
}

/** Runs the command line `argv` (process.argv shape) and sets the exit code. */
export async function main(argv: string[]): Promise<void> {
  // Read before parsing, so that even a usage error is printed without colour.
  if (argv.slice(2).includes("--no-color")) disableColour();
  const program = createProgram();
  const paint = paletteFor(process.stderr);
  let diskFull: string | null = null;
  try {
    await registerFor(program, argv);
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit cleanly; usage errors are bad input.
      process.exitCode = err.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
    } else if (err instanceof UserError) {
      process.stderr.write(`${paint.error("error:")} ${err.message}\n`);
      process.exitCode = EXIT_BAD_INPUT;
    } else if ((diskFull = await diskFullAnswer(err)) !== null) {
      // A full disk is the environment, not a bug: name it and the file system to free, no stack trace.
      process.stderr.write(`${paint.error("error:")} ${diskFull}\n`);
      process.exitCode = EXIT_BAD_INPUT;
    } else {
      process.stderr.write(`${paint.error("unexpected error:")} ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    }
  }
}
