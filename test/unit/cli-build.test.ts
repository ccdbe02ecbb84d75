/**
 * The `socrates` CLI as built ahead into dist/cli/ (scripts/build-cli.mjs; the global setup builds
 * it): it answers as the sources do, its top-level help loads no command module, a command loads
 * only the packages it uses, and the bin knows when the build is older than its sources and builds
 * it then.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI_DIR = join(ROOT, "dist/cli");

/**
 * Runs the built CLI with a module hook that logs every module it resolves, and returns the
 * packages among them (`vega`, `@aws-sdk/client-mturk`) and the CLI's own built files.
 */
function loadedBy(args: string[]): { packages: string[]; chunks: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "socrates-cli-loads-"));
  try {
    const log = join(dir, "resolved.txt");
    const hooks = `import { appendFileSync } from "node:fs";
      export async function resolve(specifier, context, next) {
        const result = await next(specifier, context);
        appendFileSync(${JSON.stringify(log)}, result.url + "\\n");
        return result;
      }`;
    const register = `import { register } from "node:module";
      register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
    const run = spawnSync(
      process.execPath,
      ["--import", `data:text/javascript,${encodeURIComponent(register)}`, join(ROOT, "scripts/socrates.mjs"), ...args],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const urls = readFileSync(log, "utf8").split("\n");
    const packages = urls.flatMap((u) => u.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1] ?? []);
    const chunks = urls.flatMap((u) => u.match(/\/dist\/cli\/([^/]+\.mjs)$/)?.[1] ?? []);
    return { packages: [...new Set(packages)].sort(), chunks: [...new Set(chunks)] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every module specifier a built file imports statically (`import … from "x"`), not through import(). */
function staticImports(file: string): string[] {
  const text = readFileSync(join(CLI_DIR, file), "utf8");
  return [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)";?$/gms)].map((m) => m[1]);
}

describe("the built CLI", () => {
  it("prints the same top-level help and unknown-command error as the sources run through tsx", () => {
    for (const args of [["--help"], ["nonsense"]]) {
      const built = runCli(args);
      const source = runCli(args, { SOCRATES_CLI_SOURCE: "1" });
      expect(built.status, args.join(" ")).toBe(source.status);
      expect(built.stdout).toBe(source.stdout);
      expect(built.stderr).toBe(source.stderr);
    }
    expect(runCli(["--help"]).stdout).toContain("validate-evaluator [options]");
    expect(runCli(["nonsense"]).status).toBe(2);
  });

  it("answers the top-level help from commands.json: the entry loads only commander and node builtins", () => {
    const seen = new Set<string>();
    const external = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const s of staticImports(file)) {
        if (s.startsWith("./")) visit(s.slice(2));
        else external.add(s);
      }
    };
    visit("cli.mjs");
    expect([...external].filter((s) => !s.startsWith("node:"))).toEqual(["commander"]);
    const manifest = JSON.parse(readFileSync(join(CLI_DIR, "commands.json"), "utf8")) as {
      names: string[];
      module: string;
    }[];
    expect(manifest.find((e) => e.names.includes("seed-demo"))?.module).toBe("data");
  });

  it("runs `stats alpha` with no package but commander: no zod, jstat, openai, drizzle, SQLite, vega or AWS SDK", () => {
    const dir = mkdtempSync(join(tmpdir(), "socrates-alpha-"));
    try {
      const file = join(dir, "m.json");
      writeFileSync(
        file,
        JSON.stringify({
          data: [
            [1, 2, 3, null],
            [1, 2, 4, 4],
          ],
        }),
      );
      const { packages, chunks } = loadedBy(["stats", "alpha", "--file", file, "--level", "ordinal"]);
      expect(chunks.some((c) => c.startsWith("stats-"))).toBe(true); // the hook saw the command's own module
      expect(packages).toEqual(["commander"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("draws no chart for `db --help`, so loads neither vega nor an LLM client nor the AWS SDK", () => {
    const { packages } = loadedBy(["db", "--help"]);
    expect(packages).toContain("better-sqlite3");
    expect(packages.filter((p) => /^(vega|d3-|openai|@aws-sdk\/)/.test(p))).toEqual([]);
  });

  it("answers --help for every top-level command the manifest lists", { timeout: 180_000 }, () => {
    const manifest = JSON.parse(readFileSync(join(CLI_DIR, "commands.json"), "utf8")) as { names: string[] }[];
    expect(manifest.length).toBeGreaterThan(10);
    for (const { names } of manifest) {
      const result = runCli([names[0], "--help"]);
      expect(result.stderr, names[0]).toBe("");
      expect(result.status, names[0]).toBe(0);
      expect(result.stdout).toContain(`Usage: socrates ${names[0]} `);
    }
  });

  it("loads a command's own module on demand: `help stats` shows the stats subcommands", () => {
    const result = runCli(["help", "stats"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/alpha \[options\]/);
    expect(result.stdout).toMatch(/corr \[options\]/);
  });
});

describe("the bin without a fresh build", () => {
  // A build of its own (SOCRATES_CLI_DIR), inside the checkout so the bundle finds node_modules.
  const dir = join(ROOT, "dist", `cli-test-${process.pid}`);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("builds the CLI first, then runs it", () => {
    expect(existsSync(dir)).toBe(false);
    const first = runCli(["stats", "--help"], { SOCRATES_CLI_DIR: dir });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/corr \[options\]/);
    expect(first.stderr).toBe("");
    expect(existsSync(join(dir, "commands.json"))).toBe(true);
    const builtAt = statSync(join(dir, "build-info.json")).mtimeMs;
    expect(runCli(["stats", "--help"], { SOCRATES_CLI_DIR: dir }).stdout).toBe(first.stdout);
    expect(statSync(join(dir, "build-info.json")).mtimeMs).toBe(builtAt); // fresh: not built again
  });

  it("opens and migrates a database when run from outside the project folder", () => {
    const away = mkdtempSync(join(tmpdir(), "socrates-away-"));
    try {
      const result = spawnSync(process.execPath, [join(ROOT, "scripts/socrates.mjs"), "export", "out.json"], {
        cwd: away,
        env: { ...process.env, SOCRATES_DB: "here.db" },
        encoding: "utf8",
      });
      expect(result.stderr).not.toMatch(/_journal|unexpected error/);
      expect(result.status, result.stderr).toBe(0);
      expect(existsSync(join(away, "here.db"))).toBe(true);
      expect(JSON.parse(readFileSync(join(away, "out.json"), "utf8")).scenarios).toEqual([]);
    } finally {
      rmSync(away, { recursive: true, force: true });
    }
  });
});

describe("cliBuildIsFresh (scripts/cli-bundle.mjs)", () => {
  // A copy of the module in a scratch tree, so touching its "sources" never stales the real build.
  const scratch = mkdtempSync(join(tmpdir(), "socrates-cli-fresh-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("holds while every recorded source exists and is no newer than the build's start", () => {
    mkdirSync(join(scratch, "scripts"));
    mkdirSync(join(scratch, "dist/cli"), { recursive: true });
    copyFileSync(join(ROOT, "scripts/cli-bundle.mjs"), join(scratch, "scripts/cli-bundle.mjs"));
    // In plain node, as the bin runs it (vitest's module runner will not load files outside the project).
    const url = pathToFileURL(join(scratch, "scripts/cli-bundle.mjs")).href;
    const cliBuildIsFresh = () => {
      const run = spawnSync(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `import { cliBuildIsFresh } from ${JSON.stringify(url)}; console.log(cliBuildIsFresh());`,
        ],
        { encoding: "utf8" },
      );
      if (run.status !== 0) throw new Error(run.stderr);
      return JSON.parse(run.stdout) as boolean;
    };
    expect(cliBuildIsFresh()).toBe(false); // no build yet

    const startedAt = Date.now();
    const source = join(scratch, "scripts/a.ts");
    writeFileSync(source, "export {};\n");
    utimesSync(source, new Date(startedAt - 60_000), new Date(startedAt - 60_000));
    writeFileSync(join(scratch, "dist/cli/build-info.json"), JSON.stringify({ startedAt, inputs: ["scripts/a.ts"] }));
    expect(cliBuildIsFresh()).toBe(true);

    utimesSync(source, new Date(startedAt + 60_000), new Date(startedAt + 60_000)); // edited after the build began
    expect(cliBuildIsFresh()).toBe(false);

    rmSync(source); // a source the build read is gone
    expect(cliBuildIsFresh()).toBe(false);
  });
});
