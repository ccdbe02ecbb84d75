/**
 * `npx socrates` on a fresh clone: package.json declares no `bin` (with one, npx loads npm's whole
 * dependency tree before each call), and `prepare` links node_modules/.bin/socrates to the entry
 * instead (scripts/link-bin.mjs), which npx then runs directly. Checked in a scratch tree, so the
 * checkout's own node_modules is never touched.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

describe("npx socrates without a package bin", () => {
  const scratch = mkdtempSync(join(tmpdir(), "socrates-link-bin-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const link = join(scratch, "node_modules/.bin/socrates");
  const linkBin = () => execFileSync(process.execPath, [join(scratch, "scripts/link-bin.mjs")], { encoding: "utf8" });

  it("package.json has no bin, and prepare runs the linker after the build", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg.bin).toBeUndefined();
    expect(pkg.scripts.prepare).toContain("node scripts/link-bin.mjs");
  });

  it("links node_modules/.bin/socrates to the entry once, replaces a wrong one, and npx runs it", () => {
    mkdirSync(join(scratch, "scripts"));
    copyFileSync(join(ROOT, "scripts/link-bin.mjs"), join(scratch, "scripts/link-bin.mjs"));
    // A stand-in entry, not executable yet: the linker must make it so.
    const entry = join(scratch, "scripts/socrates.mjs");
    const script = '#!/usr/bin/env node\nconsole.log("entry", process.argv.slice(2).join(" "));\n';
    writeFileSync(entry, script, { mode: 0o644 });
    writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "scratch", private: true }));

    expect(linkBin()).toBe("linked node_modules/.bin/socrates -> ../../scripts/socrates.mjs\n");
    expect(readlinkSync(link)).toBe("../../scripts/socrates.mjs");
    expect(realpathSync(link)).toBe(realpathSync(entry));
    expect(lstatSync(entry).mode & 0o111).toBe(0o111);
    expect(linkBin()).toBe(""); // already right: left alone
    expect(readlinkSync(link)).toBe("../../scripts/socrates.mjs");

    rmSync(link);
    symlinkSync("../somewhere-else.mjs", link);
    linkBin();
    expect(readlinkSync(link)).toBe("../../scripts/socrates.mjs");

    const npx = spawnSync("npx", ["socrates", "--help", "x"], { cwd: scratch, encoding: "utf8" });
    expect(npx.stderr).toBe("");
    expect(npx.stdout).toBe("entry --help x\n");
  });
});
