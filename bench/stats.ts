/**
 * Krippendorff's alpha and its bootstrap against the references of issue 35 (run: npm run bench:stats).
 *
 * Per workload: our CPU time (process.cpuUsage around krippendorffAlpha / bootstrapAlpha on the
 * rating matrix in memory), the reference's CPU time on the same data (time.process_time in a
 * Python child, bench/stats-reference.py: fast-krippendorff, or our plain numpy coincidence-matrix
 * alpha and numpy bootstrap), and reference / ours. Runs alternate, ours then the reference's,
 * after a warm-up (none for the slow references), and the medians are printed with the load
 * average: other work on the machine slows both sides, so trust the ratios more than the seconds.
 * Without python3 + numpy only our times are printed; without fast-krippendorff's source
 * (FAST_KRIPPENDORFF_SRC, default ../fastkripp_src beside the repository: a folder holding its
 * `krippendorff` package) its rows print ours only.
 *
 *   CASES=nominal,boot-ratio  a subset (names as printed);  REPEATS=n  timed runs per side (default 5;
 *   the slow references — interval 2 × 10M and the bootstraps — run at most 3)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import {
  bootstrapAlpha,
  createRng,
  krippendorffAlpha,
  randomInt,
  type AlphaLevel,
  type RatingValue,
} from "../app/domain/stats/index.ts";

type Reference = "fk" | "numpy" | "numpy-boot";

interface Workload {
  name: string;
  label: string;
  data: () => RatingValue[][];
  level: AlphaLevel;
  reference: Reference;
  draws?: number; // a bootstrap of this many draws
  slow?: boolean; // at most 3 timed runs per side
}

/** Raters agree with a unit's "true" value with probability `agree`, otherwise pick at random. */
function ratings(
  seed: number,
  raters: number,
  units: number,
  values: readonly number[],
  agree: number,
  missing: number,
): RatingValue[][] {
  const rng = createRng(seed);
  const truth = Array.from({ length: units }, () => values[randomInt(rng, values.length)]);
  return Array.from({ length: raters }, () =>
    truth.map((t) => {
      if (rng() < missing) return null;
      return rng() < agree ? t : values[randomInt(rng, values.length)];
    }),
  );
}

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);
const many = () => ratings(14, 2, 1_000_000, range(10_000), 0.6, 0);
const bootData = () => ratings(15, 2, 100_000, range(1_000), 0.6, 0);

const WORKLOADS: Workload[] = [
  {
    name: "nominal",
    label: "alpha nominal, 3 x 300,000, 10% missing, 8 values",
    data: () => ratings(12, 3, 300_000, range(8), 0.7, 0.1),
    level: "nominal",
    reference: "fk",
  },
  {
    name: "ordinal",
    label: "alpha ordinal, 2 x 1,000,000, 5 values",
    data: () => ratings(11, 2, 1_000_000, range(5), 0.7, 0),
    level: "ordinal",
    reference: "fk",
  },
  {
    name: "interval-10m",
    label: "alpha interval, 2 x 10,000,000, 5 values",
    data: () => ratings(16, 2, 10_000_000, range(5), 0.7, 0),
    level: "interval",
    reference: "fk",
    slow: true,
  },
  {
    name: "interval-10k",
    label: "alpha interval, 2 x 1,000,000, 10,000 values",
    data: many,
    level: "interval",
    reference: "numpy",
  },
  {
    name: "ratio-10k",
    label: "alpha ratio, 2 x 1,000,000, 10,000 values",
    data: many,
    level: "ratio",
    reference: "numpy",
  },
  {
    name: "boot-interval",
    label: "bootstrap 1,000 draws, interval, 2 x 100,000, 1,000 values",
    data: bootData,
    level: "interval",
    reference: "numpy-boot",
    draws: 1000,
    slow: true,
  },
  {
    name: "boot-ratio",
    label: "bootstrap 1,000 draws, ratio, 2 x 100,000, 1,000 values",
    data: bootData,
    level: "ratio",
    reference: "numpy-boot",
    draws: 1000,
    slow: true,
  },
];

const REFERENCE_NAMES: Record<Reference, string> = {
  fk: "fast-krippendorff",
  numpy: "numpy coincidence matrix",
  "numpy-boot": "numpy bootstrap",
};

/** The Python side: one job per line, one JSON answer per line. */
class PythonReference {
  private readonly lines: AsyncIterator<string>;
  private readonly child;

  constructor(script: string, fkSource: string | null) {
    const pythonPath = [fkSource, process.env.PYTHONPATH].filter(Boolean).join(":");
    this.child = spawn("python3", [script], {
      env: { ...process.env, PYTHONPATH: pythonPath },
      stdio: ["pipe", "pipe", "inherit"],
    });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  async ask(job: object): Promise<Record<string, unknown>> {
    this.child.stdin.write(`${JSON.stringify(job)}\n`);
    const next = await this.lines.next();
    if (next.done) throw new Error("the Python reference stopped");
    return JSON.parse(next.value);
  }

  close(): void {
    this.child.stdin.end();
  }
}

function numpyPresent(): boolean {
  const probe = spawnSync("python3", ["-c", "import numpy"], { stdio: "ignore" });
  return probe.status === 0;
}

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

function ours(w: Workload, data: RatingValue[][]): number {
  const t0 = cpuSeconds();
  if (w.draws) bootstrapAlpha(data, w.level, { draws: w.draws, seed: 1 });
  else krippendorffAlpha(data, w.level);
  return cpuSeconds() - t0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Rating matrix as float64, rows = raters, NaN = missing: the file the Python side reads. */
function writeMatrix(path: string, data: RatingValue[][]): void {
  const units = data[0].length;
  const out = new Float64Array(data.length * units);
  for (let r = 0; r < data.length; r++) {
    for (let u = 0; u < units; u++) {
      const v = data[r][u];
      out[r * units + u] = typeof v === "number" ? v : Number.NaN;
    }
  }
  writeFileSync(path, out);
}

interface Row {
  workload: Workload;
  ours: number[];
  reference: number[] | null;
  agrees: boolean | null; // the reference's alpha equals ours (1e-9), point estimates only
}

async function measure(
  w: Workload,
  python: PythonReference | null,
  fkPresent: boolean,
  dir: string,
  repeats: number,
): Promise<Row> {
  const data = w.data();
  const withRef = python !== null && (w.reference !== "fk" || fkPresent);
  if (withRef) {
    const path = join(dir, `${w.name}.f64`);
    writeMatrix(path, data);
    await python.ask({ op: "load", name: w.name, path, raters: data.length, units: data[0].length });
  }
  const job = { op: "run", ref: w.reference, name: w.name, level: w.level, draws: w.draws, seed: 1 };
  const n = w.slow ? Math.min(3, repeats) : repeats;
  const row: Row = { workload: w, ours: [], reference: withRef ? [] : null, agrees: null };
  for (let i = 0; i <= n; i++) {
    const mine = ours(w, data); // run 0 warms up the JIT
    if (i > 0) row.ours.push(mine);
    // The reference warms up too (caches, allocator), except where one run takes seconds.
    if (!withRef || (i === 0 && w.slow)) continue;
    const answer = await python.ask(job);
    if (i > 0) row.reference!.push(answer.seconds as number);
    if (i === (w.slow ? 1 : 0) && !w.draws) {
      const alpha = krippendorffAlpha(data, w.level).alpha;
      row.agrees = alpha !== null && typeof answer.alpha === "number" && Math.abs(answer.alpha - alpha) <= 1e-9;
    }
  }
  return row;
}

function print(rows: Row[], loadBefore: string): void {
  const table = rows.map((r) => {
    const mine = median(r.ours);
    const ref = r.reference ? median(r.reference) : null;
    const ratio = ref !== null ? ref / mine : null;
    return {
      workload: `${r.workload.name}: ${r.workload.label}`,
      ours: mine.toFixed(4),
      reference: ref !== null ? `${ref.toFixed(4)} ${REFERENCE_NAMES[r.workload.reference]}` : "-",
      ratio: ratio !== null ? `${ratio.toFixed(1)}x` : "-",
      goal: ratio === null ? "-" : ratio >= 10 ? "met" : "NOT met",
      alpha: r.agrees === null ? "-" : r.agrees ? "same" : "DIFFERS",
    };
  });
  const header = {
    workload: "workload",
    ours: "ours s",
    reference: "reference s",
    ratio: "ref/ours",
    goal: ">= 10x",
    alpha: "alpha",
  };
  const keys = Object.keys(header) as (keyof typeof header)[];
  const widths = keys.map((k) => Math.max(...[header, ...table].map((r) => r[k].length)));
  const line = (r: typeof header) => keys.map((k, i) => r[k].padEnd(widths[i])).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of table) console.log(line(r));
  console.log(`load average before ${loadBefore}, after ${loadAverage()} (2 cores: above 2 both sides wait)`);
}

function loadAverage(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
}

async function main(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const only = process.env.CASES?.split(",").map((x) => x.trim());
  const repeats = Math.max(1, Number(process.env.REPEATS ?? 5));
  const fkSource = resolve(process.env.FAST_KRIPPENDORFF_SRC ?? join(here, "..", "..", "fastkripp_src"));
  const hasFk = existsSync(join(fkSource, "krippendorff"));
  const python = numpyPresent() ? new PythonReference(join(here, "stats-reference.py"), hasFk ? fkSource : null) : null;
  const fkPresent = python !== null && (await python.ask({ op: "probe" })).fk === true;
  const loadBefore = loadAverage();
  const fk = fkPresent ? `fast-krippendorff from ${fkSource}` : "fast-krippendorff not found";
  const refs = python === null ? "no python3 + numpy: our times only" : `references in Python, ${fk}`;
  console.log(
    `node ${process.version}; CPU seconds, median of ${repeats} alternating runs per side (3 for the slow ones) ` +
      `after a warm-up (ours always, the reference except for the slow ones); ${refs}`,
  );
  const dir = mkdtempSync(join(tmpdir(), "bench-stats-"));
  const rows: Row[] = [];
  try {
    for (const w of WORKLOADS.filter((x) => !only || only.includes(x.name))) {
      const row = await measure(w, python, fkPresent, dir, repeats);
      rows.push(row);
      const ref = row.reference ? `, reference ${median(row.reference).toFixed(4)} s` : "";
      console.log(`  ${w.name}: ours ${median(row.ours).toFixed(4)} s${ref} (load ${loadAverage()})`);
    }
  } finally {
    python?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  print(rows, loadBefore);
}

await main();
