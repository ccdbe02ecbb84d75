/**
 * Each channel folder's `socrates` command group, imported only when it runs (scripts/cli.ts): one
 * line per folder whose descriptor names a command (its name and help line are in descriptor.ts,
 * so the CLI's help needs none of this). Apart from registry.server.ts so that a channel command
 * loads only its own folder's code, not every channel's.
 */
import type { Command } from "commander";
import type { CommandFolder } from "./registry.ts";

export const CHANNEL_COMMANDS: Record<CommandFolder, () => Promise<(program: Command) => void>> = {
  mturk: async () => (await import("./mturk/command.server.ts")).registerMturkCommands,
  prolific: async () => (await import("./prolific/command.server.ts")).registerProlificCommands,
};
