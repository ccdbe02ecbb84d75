/** The `socrates` command line: one program, one module per command group under scripts/commands/. */
import { Command, CommanderError } from "commander";
import { EXIT_BAD_INPUT, UserError } from "./cli-kit.ts";
import { diskFullMessage } from "./disk-full.ts";
import { registerBenchmarkCommands } from "./commands/benchmark.ts";
import { registerCurateCommands } from "./commands/curate.ts";
import { registerDataCommands } from "./commands/data.ts";
import { registerEvaluateCommands } from "./commands/evaluate.ts";
import { registerFidelityCommands } from "./commands/fidelity.ts";
import { registerLlmCommands } from "./commands/llm.ts";
import { registerMockLlmCommands } from "./commands/mock-llm.ts";
import { registerMturkCommands } from "./commands/mturk.ts";
import { registerProbeCommands } from "./commands/probe.ts";
import { registerProlificCommands } from "./commands/prolific.ts";
import { registerReportCommand } from "./commands/report.ts";
import { registerSimulateCommands } from "./commands/simulate.ts";
import { registerStatsCommands } from "./commands/stats.ts";
import { registerValidateEvaluatorCommand } from "./commands/validate-evaluator.ts";

const program = new Command();
program
  .name("socrates")
  .description("SoCRATES Studio: validate LLM-mediation evaluators against human labels and run the benchmark")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

registerDataCommands(program);
registerStatsCommands(program);
registerEvaluateCommands(program);
registerSimulateCommands(program);
registerFidelityCommands(program);
registerCurateCommands(program);
registerProbeCommands(program);
registerBenchmarkCommands(program);
registerLlmCommands(program);
registerMockLlmCommands(program);
registerMturkCommands(program);
registerProlificCommands(program);
registerReportCommand(program);
registerValidateEvaluatorCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const diskFull = diskFullMessage(err);
  if (err instanceof CommanderError) {
    // Help and version exit cleanly; usage errors are bad input.
    process.exitCode = err.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
  } else if (err instanceof UserError) {
    process.stderr.write(`error: ${err.message}\n`);
    process.exitCode = EXIT_BAD_INPUT;
  } else if (diskFull !== null) {
    // A full disk is the environment, not a bug: name it and the file system to free, no stack trace.
    process.stderr.write(`error: ${diskFull}\n`);
    process.exitCode = EXIT_BAD_INPUT;
  } else {
    process.stderr.write(`unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
}
