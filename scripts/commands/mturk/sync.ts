/** `socrates mturk sync` (being built). */
import type { Command } from "commander";

export function registerMturkSync(mturk: Command): void {
  void mturk;
}
