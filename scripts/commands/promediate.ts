/** `socrates promediate …`: ProMediate's testbed in the studio (docs/promediate-transcripts.md). */
import type { Command } from "commander";
import { addTranscriptCommand } from "./promediate-transcript.ts";

export function registerPromediateCommands(program: Command): void {
  const group = program
    .command("promediate")
    .description("import ProMediate's cases and transcripts (its published testbed) into the studio");
  addTranscriptCommand(group);
}
