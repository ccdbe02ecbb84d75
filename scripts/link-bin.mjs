#!/usr/bin/env node
/**
 * Makes `npx socrates` run scripts/socrates.mjs by linking it as node_modules/.bin/socrates; run by
 * `npm install` and `npm ci` (prepare). package.json has no `bin` on purpose: with one, npx takes
 * the command for the local package's own bin and loads npm's whole dependency tree (Arborist)
 * before every call, about a second of CPU; a plain file in node_modules/.bin it runs directly.
 * Idempotent: a link already pointing at the entry is left alone, anything else there is replaced
 * in one rename. Plain JavaScript with node: imports only, so it runs before anything is built.
 */
import { chmodSync, mkdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const ENTRY = join(ROOT, "scripts", "socrates.mjs");
const BIN_DIR = join(ROOT, "node_modules", ".bin");
const LINK = join(BIN_DIR, "socrates");

/** The link's target, or undefined when there is no link (or a plain file) at `path`. */
function linkTarget(path) {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** Links node_modules/.bin/socrates to the entry (relative, so a moved checkout keeps working). */
export function linkBin() {
  // The shell runs the entry through its #! line: it must be executable even where git kept no mode.
  const mode = statSync(ENTRY).mode;
  if ((mode & 0o111) !== 0o111) chmodSync(ENTRY, mode | 0o111);
  const target = relative(BIN_DIR, ENTRY);
  if (linkTarget(LINK) === target) return false;
  mkdirSync(BIN_DIR, { recursive: true });
  const tmp = `${LINK}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  symlinkSync(target, tmp);
  renameSync(tmp, LINK);
  return true;
}

if (resolve(process.argv[1] ?? "") === resolve(import.meta.filename)) {
  if (linkBin()) process.stdout.write(`linked ${relative(ROOT, LINK)} -> ${relative(BIN_DIR, ENTRY)}\n`);
}
