/** `socrates promediate …`: ProMediate's testbed in the studio (docs/promediate.md). */
import type { Command } from "commander";
import { addImportCommand } from "./promediate-import.ts";
import { addTranscriptCommand } from "./promediate-transcript.ts";

export function registerPromediateCommands(program: Command): void {
  const group = program
    .command("promediate")
    .description("import ProMediate's cases and transcripts (its published testbed) into the studio");
  addImportCommand(group);
  addTranscriptCommand(group);
}
