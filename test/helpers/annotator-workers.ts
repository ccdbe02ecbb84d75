/**
 * Annotators in processes of their own (test/helpers/annotator-worker.ts) for the allocation
 * concurrency tests: the worker bundled once, and a start that waits for "ready" and releases all
 * workers together with "go".
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { build } from "esbuild";

const ROOT = resolve(import.meta.dirname, "../..");
const WORKER = resolve(ROOT, "test/helpers/annotator-worker.ts");

export interface AnnotatorWorker {
  ready: Promise<void>;
  go: () => void;
  /** The item ids the worker got, in order. */
  done: Promise<number[]>;
}

/**
 * The worker compiled once to plain JavaScript: many processes each compiling the TypeScript
 * through tsx spent most of a test starting up. Packages stay external, so the bundle lies
 * inside the checkout (dist/, git-ignored) where node finds node_modules.
 */
export async function bundleAnnotatorWorker(outdir: string): Promise<string> {
  const outfile = join(outdir, "annotator-worker.mjs");
  const common = { bundle: true, format: "esm", platform: "node", target: "node20", packages: "external" } as const;
  await build({ ...common, absWorkingDir: ROOT, entryPoints: [WORKER], outfile, logLevel: "warning" });
  return outfile;
}

export function startAnnotatorWorker(
  script: string,
  dbPath: string,
  studyId: number,
  annotatorId: number,
): AnnotatorWorker {
  const args = [script, dbPath, String(studyId), String(annotatorId)];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let markReady: () => void = () => {};
  const ready = new Promise<void>((ok) => (markReady = ok));
  child.stdout.on("data", (d) => {
    out += d;
    if (out.startsWith("ready\n")) markReady();
  });
  child.stderr.on("data", (d) => (err += d));
  const done = new Promise<number[]>((ok, fail) =>
    child.on("exit", (code) =>
      code === 0
        ? ok(JSON.parse(out.slice("ready\n".length)) as number[])
        : fail(new Error(`worker ${annotatorId} exited ${code}: ${err}`)),
    ),
  );
  return { ready, go: () => child.stdin.end("go\n"), done };
}
