/**
 * Which unit test files may share a worker with other files. A fresh process per file costs start-up
 * and module loading, about 0.35 s a file on our 2-core machines (measured on the 276 such files:
 * 250 s in a process each, 140 s sharing two threads). Sharing is safe only for a file that leaves
 * alone everything the next file in the same worker would see, so a file shares only when its source
 * names none of it: environment variables, the working directory, arguments, exit codes, process
 * listeners, module mocks, spies, fake timers and the clock, globals, and the app's one database
 * handle (getDb). Every other test file (the browser and server tests included) keeps a process of
 * its own.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const PROCESS_STATE =
  /\bprocess\.(env|chdir|argv|exitCode|exit\(|on\(|once\()|\bvi\.(mock|doMock|stub|spyOn|useFakeTimers|setSystemTime)|\bglobalThis\b|\bgetDb\(/;

/** Whether a test file's source touches nothing process-wide (see above). */
export function leavesProcessAlone(source: string): boolean {
  return !PROCESS_STATE.test(source);
}

/** The test files under `dir` (relative to the project root, sorted) that may share a worker. */
export function sharedWorkerTests(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.test\.tsx?$/.test(name))
    .map((name) => join(dir, name))
    .filter((file) => leavesProcessAlone(readFileSync(file, "utf8")))
    .sort();
}
