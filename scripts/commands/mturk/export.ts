/** `socrates mturk export` (being built). */
import type { Command } from "commander";

export function registerMturkExport(mturk: Command): void {
  void mturk;
}
