/** The `promediate` command group: ProMediate's testbed (its cases) in the studio. */
import type { Command } from "commander";
import { addImportCommand } from "./promediate-import.ts";

export function registerPromediateCommands(program: Command): void {
  const group = program.command("promediate").description("bring ProMediate's negotiation testbed into the studio");
  addImportCommand(group);
}
