/** `socrates mturk …`: Mechanical Turk batches (export, import) and the API flow (publish, sync). */
import type { Command } from "commander";
import { registerMturkExport } from "./mturk/export.ts";
import { registerMturkImport } from "./mturk/import.ts";
import { registerMturkPublish } from "./mturk/publish.ts";
import { registerMturkSync } from "./mturk/sync.ts";

export function registerMturkCommands(program: Command): void {
  const mturk = program
    .command("mturk")
    .description("Mechanical Turk: export HIT batches and import their results, or publish HITs and sync assignments through the API");
  registerMturkExport(mturk);
  registerMturkImport(mturk);
  registerMturkPublish(mturk);
  registerMturkSync(mturk);
}
