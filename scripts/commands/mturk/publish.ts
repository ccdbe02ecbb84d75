/** `socrates mturk publish` (being built). */
import type { Command } from "commander";

export function registerMturkPublish(mturk: Command): void {
  void mturk;
}
