/**
 * Whole-process timing of `socrates stats alpha` against a Python process that loads the same JSON
 * file and calls fast-krippendorff (issue 35; target: project / Python ≤ 1.0 at every workload and
 * ≤ 0.5 from 1M values up). The project side is the `socrates` bin on the CLI built ahead into
 * dist/cli/ (built first if stale), never tsx. The Python side runs only when python3 with numpy is
 * there and fast-krippendorff imports: from FAST_KRIPPENDORFF_SRC (a folder holding its
 * `krippendorff` package; /work/fastkripp_src when that exists) or from an installed package.
 *
 *   npm run bench:cli     (ROUNDS=3 interleaved rounds; WORKLOADS=tiny,ordinal,... to pick some;
 *                          DATA_DIR=dir keeps the generated files there and reuses them next time)
 *
 * Each round runs every workload once per side, the side that goes first rotating, so a change in
 * the machine's load hits every side. BASELINE_BIN=path/to/scripts/socrates.mjs adds another
 * checkout's bin as a side (e.g. the code before a change, in a copy with its own build). Printed:
 * median wall time and peak RSS (from /usr/bin/time when present) per side, the median of the
 * per-round ratios, and the load average before and after.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { createRng, randomInt } from "../app/domain/stats/index.ts";

const ROOT = resolve(import.meta.dirname, "..");
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TIME_BIN = "/usr/bin/time";

interface Workload {
  id: string;
  label: string;
  level: "nominal" | "ordinal" | "interval";
  /** Cells in the file: the ≤ 0.5 target applies from a million up. */
  values: number;
  /** The text of the `data` array, piece by piece (one row per rater). */
  rows: () => Iterable<string>;
}

/**
 * Raters give a unit's true value 70% of the time, else any value; `missing` of the cells are null.
 * Rows are yielded as JSON text a million cells at a time.
 */
function* ratingRows(seed: number, raters: number, units: number, values: readonly number[], missing: number) {
  const rng = createRng(seed);
  const truth = new Float64Array(units);
  for (let u = 0; u < units; u++) truth[u] = values[randomInt(rng, values.length)];
  const CHUNK = 1_000_000;
  for (let r = 0; r < raters; r++) {
    for (let start = 0; start < units; start += CHUNK) {
      const cells: string[] = [];
      for (let u = start; u < Math.min(units, start + CHUNK); u++) {
        if (rng() < missing) cells.push("null");
        else cells.push(String(rng() < 0.7 ? truth[u] : values[randomInt(rng, values.length)]));
      }
      yield (start === 0 ? (r === 0 ? "[" : ",[") : ",") + cells.join(",") + (start + CHUNK >= units ? "]" : "");
    }
  }
}

const WORKLOADS: Workload[] = [
  { id: "tiny", label: "4 values, ordinal", level: "ordinal", values: 4, rows: () => ["[1,2]", ",[1,3]"] },
  {
    id: "ordinal",
    label: "2 x 1M, ordinal, 5 values",
    level: "ordinal",
    values: 2_000_000,
    rows: () => ratingRows(11, 2, 1_000_000, [1, 2, 3, 4, 5], 0),
  },
  {
    id: "nominal",
    label: "3 x 300k, nominal, 8 values, 10% missing",
    level: "nominal",
    values: 900_000,
    rows: () => ratingRows(12, 3, 300_000, [1, 2, 3, 4, 5, 6, 7, 8], 0.1),
  },
  {
    id: "interval",
    // Few values: fast-krippendorff holds two units x values x values float arrays (40 values: 119 GiB).
    label: "2 x 10M, interval, 5 values",
    level: "interval",
    values: 20_000_000,
    rows: () => ratingRows(13, 2, 10_000_000, [1, 2, 3, 4, 5], 0),
  },
];

function writeWorkload(dir: string, w: Workload): string {
  const path = join(dir, `${w.id}.json`);
  if (process.env.DATA_DIR && existsSync(path)) return path;
  const fd = openSync(path, "w");
  try {
    writeSync(fd, '{"data": [');
    for (const text of w.rows()) writeSync(fd, text);
    writeSync(fd, "]}\n");
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Loads the file as the project does and prints alpha; numbers only, so null becomes NaN. */
const PYTHON_ANCHOR = `
import json, sys
import numpy as np
import krippendorff
with open(sys.argv[1]) as f:
    data = json.load(f)["data"]
alpha = krippendorff.alpha(reliability_data=np.array(data, dtype=float), level_of_measurement=sys.argv[2])
print(json.dumps({"alpha": float(alpha)}))
`;

/** The environment python3 finds numpy and fast-krippendorff in, or undefined when it does not. */
function pythonEnv(): NodeJS.ProcessEnv | undefined {
  const src = process.env.FAST_KRIPPENDORFF_SRC ?? (existsSync("/work/fastkripp_src") ? "/work/fastkripp_src" : "");
  const env = src ? { ...process.env, PYTHONPATH: src } : process.env;
  const probe = spawnSync("python3", ["-c", "import numpy, krippendorff"], { env, encoding: "utf8" });
  return probe.status === 0 ? env : undefined;
}

interface Sample {
  seconds: number;
  rssMb: number | null;
  alpha: number | null;
}

/** Runs one process to its end; wall time measured here, peak RSS by /usr/bin/time when there. */
function timeProcess(command: string, args: string[], env: NodeJS.ProcessEnv | undefined, rssFile: string): Sample {
  const timed = existsSync(TIME_BIN);
  const [cmd, argv] = timed ? [TIME_BIN, ["-f", "%M", "-o", rssFile, command, ...args]] : [command, args];
  const t0 = performance.now();
  const run = spawnSync(cmd, argv, { env, encoding: "utf8", maxBuffer: 1 << 24 });
  const seconds = (performance.now() - t0) / 1000;
  if (run.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
  const rssMb = timed ? Number(readFileSync(rssFile, "utf8").trim().split("\n").pop()) / 1024 : null;
  return { seconds, rssMb, alpha: (JSON.parse(run.stdout) as { alpha: number | null }).alpha };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One kind of process timed on every workload: its command line for a file and a level. */
interface Side {
  name: string;
  command: (file: string, level: string) => [string, string[]];
  env: NodeJS.ProcessEnv;
}

function sides(): Side[] {
  const cli = (bin: string) => (file: string, level: string) =>
    [process.execPath, [bin, "stats", "alpha", "--file", file, "--level", level]] as [string, string[]];
  const list: Side[] = [{ name: "project", command: cli(join(ROOT, "scripts/socrates.mjs")), env: process.env }];
  const baseline = process.env.BASELINE_BIN;
  if (baseline) list.push({ name: "baseline", command: cli(resolve(baseline)), env: process.env });
  const python = pythonEnv();
  if (python) list.push({ name: "python", command: (f, l) => ["python3", ["-c", PYTHON_ANCHOR, f, l]], env: python });
  return list;
}

function main(): void {
  const build = spawnSync(process.execPath, [join(ROOT, "scripts/build-cli.mjs")], { encoding: "utf8" });
  if (build.status !== 0) throw new Error(`building the CLI failed: ${build.stderr}`);
  const only = process.env.WORKLOADS?.split(",").map((s) => s.trim());
  const workloads = WORKLOADS.filter((w) => !only || only.includes(w.id));
  const keep = process.env.DATA_DIR;
  if (keep) mkdirSync(keep, { recursive: true });
  const dir = keep ? resolve(keep) : mkdtempSync(join(tmpdir(), "socrates-bench-cli-"));
  const timed = sides();
  const loadBefore = loadavg();
  try {
    const files = new Map(workloads.map((w) => [w.id, writeWorkload(dir, w)]));
    const rssFile = join(dir, "peak-rss.txt");
    // samples[workload][side][round]
    const samples = new Map(workloads.map((w) => [w.id, new Map(timed.map((t) => [t.name, [] as Sample[]]))]));
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another side, so no side always runs right after the big Python process.
      const order = timed.map((_, i) => timed[(i + round) % timed.length]);
      for (const w of workloads) {
        for (const side of order) {
          const [command, args] = side.command(files.get(w.id)!, w.level);
          samples
            .get(w.id)!
            .get(side.name)!
            .push(timeProcess(command, args, side.env, rssFile));
        }
      }
    }
    report(workloads, samples, loadBefore);
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

function report(workloads: Workload[], samples: Map<string, Map<string, Sample[]>>, loadBefore: number[]): void {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
  console.log(
    `node ${process.version}, ${ROUNDS} interleaved rounds, medians; load average before ${load(loadBefore)}, ` +
      `after ${load(loadavg())} (2 cores: above 2 inflates every side)`,
  );
  const names = [...samples.values().next().value!.keys()];
  if (!names.includes("python")) console.log("python3 with numpy and fast-krippendorff not found: no ratios to it");
  const mb = (xs: Sample[]) => (xs[0]?.rssMb == null ? "n/a" : `${median(xs.map((s) => s.rssMb!)).toFixed(0)} MB`);
  /** Median of the per-round ratios a / b (both ran in the same round). */
  const ratio = (a: Sample[], b: Sample[]) => median(a.map((s, i) => s.seconds / b[i].seconds));
  for (const w of workloads) {
    const bySide = samples.get(w.id)!;
    const parts = names.map((n) => {
      const xs = bySide.get(n)!;
      return `${n} ${median(xs.map((s) => s.seconds)).toFixed(3)} s ${mb(xs).padStart(7)}`;
    });
    const project = bySide.get("project")!;
    const python = bySide.get("python");
    const baseline = bySide.get("baseline");
    if (baseline) parts.push(`project/baseline ${ratio(project, baseline).toFixed(3)}`);
    if (python) {
      const r = ratio(project, python);
      const target = w.values >= 1_000_000 ? 0.5 : 1;
      const diff = Math.abs((project[0].alpha ?? Number.NaN) - (python[0].alpha ?? Number.NaN));
      parts.push(`project/python ${r.toFixed(3)} (target ≤ ${target}: ${r <= target ? "yes" : "NO"})`);
      if (baseline) parts.push(`baseline/python ${ratio(baseline, python).toFixed(3)}`);
      parts.push(`|Δalpha| ${diff.toExponential(1)}`);
    }
    console.log(`${w.id.padEnd(9)} ${w.label.padEnd(42)} ${parts.join(" | ")}`);
  }
}

main();
