import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bootstrapAlpha, kendallTauB, krippendorffAlpha, pearson, spearman } from "../../../app/domain/stats/index.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "socrates-stats-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

function socrates(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/socrates.mjs", ...args], { cwd: root });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const _ = null;
const MATRIX = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
];

describe("socrates stats alpha", () => {
  it("prints alpha as JSON", async () => {
    const res = await socrates("stats", "alpha", "--file", file("m.json", { data: MATRIX }), "--level", "interval");
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toEqual({
      alpha: krippendorffAlpha(MATRIX, "interval").alpha,
      level: "interval",
      units: 11,
      pairable_values: 40,
    });
  });

  it("adds the bootstrap CI and P(alpha < threshold) with --bootstrap/--seed", async () => {
    const res = await socrates(
      "stats",
      "alpha",
      "--file",
      file("m2.json", { data: MATRIX }),
      "--level",
      "ordinal",
      "--bootstrap",
      "200",
      "--seed",
      "9",
    );
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    const boot = bootstrapAlpha(MATRIX, "ordinal", { draws: 200, seed: 9 });
    expect(out.ci).toEqual(boot.ci);
    expect(out.p_below).toEqual(boot.pBelow);
    expect(out).toMatchObject({ draws: 200, seed: 9, undefined_draws: 0 });
  });

  it("reports an undefined alpha as null with a reason", async () => {
    const res = await socrates(
      "stats",
      "alpha",
      "--file",
      file("same.json", {
        data: [
          ["a", "a"],
          ["a", "a"],
        ],
      }),
      "--level",
      "nominal",
    );
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      alpha: null,
      reason: expect.stringMatching(/all pairable values are equal/),
    });
  });

  it("exits 2 naming the file and JSON path of a bad cell", async () => {
    const path = file("bad.json", {
      data: [
        [1, 2, 3, 4, 5],
        [1, 2, 3, 4, { x: 1 }],
      ],
    });
    const res = await socrates("stats", "alpha", "--file", path, "--level", "nominal");
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${path}: $.data[1][4]: expected a number, string or null`);
    expect(res.stdout).toBe("");
  });

  it("exits 2 on ragged rows, strings at a numeric level, bad JSON, a missing file and a bad level", async () => {
    const ragged = await socrates(
      "stats",
      "alpha",
      "--file",
      file("ragged.json", { data: [[1, 2], [1]] }),
      "--level",
      "nominal",
    );
    expect(ragged.code).toBe(2);
    expect(ragged.stderr).toMatch(/ragged\.json: rater row 1 has 1 values but row 0 has 2/);

    const strings = await socrates(
      "stats",
      "alpha",
      "--file",
      file("s.json", {
        data: [
          ["a", "b"],
          ["a", "b"],
        ],
      }),
      "--level",
      "interval",
    );
    expect(strings.code).toBe(2);
    expect(strings.stderr).toMatch(/the interval level needs numbers/);

    const broken = await socrates("stats", "alpha", "--file", file("broken.json", "{ nope"), "--level", "nominal");
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.json: invalid JSON/);

    const missing = await socrates("stats", "alpha", "--file", join(dir, "absent.json"), "--level", "nominal");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/absent\.json: cannot read file/);

    const level = await socrates("stats", "alpha", "--file", file("ok.json", { data: MATRIX }), "--level", "cardinal");
    expect(level.code).toBe(2);

    const draws = await socrates(
      "stats",
      "alpha",
      "--file",
      file("ok2.json", { data: MATRIX }),
      "--level",
      "nominal",
      "--bootstrap",
      "0",
    );
    expect(draws.code).toBe(2);
    expect(draws.stderr).toMatch(/--bootstrap must be a whole number/);
  });

  it("has a helpful --help", async () => {
    const res = await socrates("stats", "alpha", "--help");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/Krippendorff's alpha/);
    expect(res.stdout).toMatch(/--level <level>/);
  });
});

describe("socrates stats corr", () => {
  const x = [1, 2, 3, 4, 5, 6, 7, 8];
  const y = [2, 1, 4, 3, 6, 5, 8, 8];

  it("prints Pearson, Spearman and Kendall as JSON", async () => {
    const res = await socrates("stats", "corr", "--file", file("p.json", { x, y }));
    expect(res.code).toBe(0);
    const pr = pearson(x, y);
    const sr = spearman(x, y);
    const kr = kendallTauB(x, y);
    expect(JSON.parse(res.stdout)).toEqual({
      n: 8,
      pearson: { r: pr.r, p: pr.p, ci: pr.ci },
      spearman: { rho: sr.rho, p: sr.p, method: "asymptotic" }, // y has a tie
      kendall: { tau: kr.tau, p: kr.p, method: "asymptotic" },
    });
  });

  it("prints the exact p for x = y = [1, 2, 3] (1/3: 2 of the 6 pairings are as extreme) and names the method", async () => {
    const res = await socrates("stats", "corr", "--file", file("n3.json", { x: [1, 2, 3], y: [1, 2, 3] }));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/"spearman": \{[^}]*"p": 0\.3333333333333333,\s*"method": "exact"/);
    const out = JSON.parse(res.stdout);
    expect(out.spearman.p).toBeCloseTo(1 / 3, 15);
    expect(out.kendall).toMatchObject({ p: 1 / 3, method: "exact" });
    expect(out.pearson.p).toBeLessThan(1e-6); // Pearson's t test is unchanged
  });

  it("exits 2 on unequal lengths and non-numbers", async () => {
    const unequal = await socrates("stats", "corr", "--file", file("u.json", { x: [1, 2, 3], y: [1, 2] }));
    expect(unequal.code).toBe(2);
    expect(unequal.stderr).toMatch(/\$\.x has 3 values but \$\.y has 2/);
    const text = await socrates("stats", "corr", "--file", file("t.json", { x: [1, "2", 3], y: [1, 2, 3] }));
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/\$\.x\[1\]: expected a finite number/);
  });
});
