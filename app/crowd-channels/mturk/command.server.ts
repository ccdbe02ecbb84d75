/** `socrates mturk …`: Mechanical Turk batches (export, import) and the API flow (publish, sync). */
import type { Command } from "commander";
import { registerMturkExport } from "./command/export.server.ts";
import { registerMturkImport } from "./command/import.server.ts";
import { registerMturkPublish } from "./command/publish.server.ts";
import { registerMturkSync } from "./command/sync.server.ts";

export function registerMturkCommands(program: Command): void {
  const mturk = program
    .command("mturk")
    .description("Mechanical Turk: export HIT batches and import their results, or publish HITs and sync assignments through the API");
  registerMturkExport(mturk);
  registerMturkImport(mturk);
  registerMturkPublish(mturk);
  registerMturkSync(mturk);
}
