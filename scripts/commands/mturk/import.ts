/** `socrates mturk import` (being built). */
import type { Command } from "commander";

export function registerMturkImport(mturk: Command): void {
  void mturk;
}
