/** `socrates mturk …`: Mechanical Turk batches (export, import) and the API flow (publish, sync). */
import type { Command } from "commander";
import { MTURK_FOLDER } from "./descriptor.ts";
import { registerMturkExport } from "./command/export.server.ts";
import { registerMturkImport } from "./command/import.server.ts";
import { registerMturkPublish } from "./command/publish.server.ts";
import { registerMturkSync } from "./command/sync.server.ts";

export function registerMturkCommands(program: Command): void {
  const mturk = program.command(MTURK_FOLDER.command.name).description(MTURK_FOLDER.command.description);
  registerMturkExport(mturk);
  registerMturkImport(mturk);
  registerMturkPublish(mturk);
  registerMturkSync(mturk);
}
