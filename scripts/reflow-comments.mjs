#!/usr/bin/env node
/**
 * Rewraps comment lines longer than 120 characters: Biome wraps code but never comments, and
 * `npm run lint` refuses a comment line over 120 (scripts/lint-line-length.mjs).
 * Usage: node scripts/reflow-comments.mjs [--check] [FILE…] (default: every .ts .tsx .mts .cts
 * .js .mjs .cjs file git tracks or would add). The TypeScript parser finds the comments, so a `//`
 * inside a string or a regex is left alone. Run `npx biome format --write` after it: a comment
 * moved above its line can let Biome join that line again.
 *
 * - `//` comment lines and the lines of a `/* … *\/` or `/** … *\/` block keep their indentation and
 *   prefix (`// `, ` * `); a too-long line is cut at the last space that fits (outside `code`
 *   spans when it can) and the rest goes to the start of the next line when that line continues
 *   the same paragraph (same prefix, not blank, not a list item, an @tag, a fence or a table
 *   row), otherwise to a new line with the same prefix (plus a hanging indent under a list item).
 *   The next line is then checked in turn, so a paragraph reflows downwards only as far as needed.
 * - A one-line `/** … *\/` that is too long becomes a block of ` * ` lines.
 * - A `//` comment after code on a too-long line moves above that line, at its indentation.
 * - Left as they are: lines inside ``` fences, JSX `{/* … *\/}` comments, a `/* … *\/` after code,
 *   and text with no space to cut at (a long URL).
 * With --check nothing is written; the files that would change are listed.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";

const MAX = 120;
const SCRIPT = /\.(tsx?|mts|cts|m?js|cjs)$/;
const len = (s) => [...s].length;

/** Every comment range in the file, found from the parse tree (leading and trailing trivia of each node and token). */
function commentRanges(text, fileName) {
  const kind = /\.(tsx|jsx)$/.test(fileName)
    ? ts.ScriptKind.TSX
    : /\.m?[jc]s$/.test(fileName)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Map();
  const add = (ranges) => {
    for (const r of ranges ?? []) seen.set(r.pos, r);
  };
  // getChildren includes the punctuation tokens, so a comment before a `|` or a `}` is found too.
  const visit = (node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  add(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return [...seen.values()].sort((a, b) => a.pos - b.pos);
}

/** The last place to cut `text` so that `prefix + head` fits; prefers spaces outside `code` spans. */
function cutAt(text, room) {
  const points = [...text];
  let inCode = false;
  let best = -1;
  let bestAny = -1;
  for (let i = 0; i < points.length && i <= room; i++) {
    if (points[i] === "`") inCode = !inCode;
    if (points[i] !== " " || i === 0) continue;
    const rest = points.slice(i + 1).join("");
    if (/^([-*+]|\d+\.|@\w|\|)(\s|$)/.test(rest) || rest.startsWith("@")) continue; // would read as a list item or tag
    bestAny = i;
    if (!inCode) best = i;
  }
  const at = best > 0 ? best : bestAny;
  if (at <= 0) return null;
  return [
    points.slice(0, at).join("").trimEnd(),
    points
      .slice(at + 1)
      .join("")
      .trimStart(),
  ];
}

const LIST_ITEM = /^([-*+]|\d+\.)\s+/;
const STARTS_OWN_LINE = /^([-*+]\s|\d+\.\s|@|```|\|)/;

/**
 * Rewraps an array of { prefix, text } lines (one comment block or run of // lines) in place.
 * Returns true when something changed.
 */
function reflowLines(lines) {
  let changed = false;
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.text.startsWith("```")) fence = !fence;
    if (fence || len(line.prefix + line.text) <= MAX) continue;
    const cut = cutAt(line.text, MAX - len(line.prefix));
    if (!cut) continue;
    const [head, tail] = cut;
    line.text = head;
    changed = true;
    const marker = line.text.match(LIST_ITEM);
    const hanging = line.prefix + (marker ? " ".repeat(marker[0].length) : "");
    const next = lines[i + 1];
    const continues =
      next &&
      !next.raw &&
      next.text !== "" &&
      !STARTS_OWN_LINE.test(next.text) &&
      (next.prefix === hanging || next.prefix === line.prefix);
    if (continues) next.text = `${tail} ${next.text}`;
    else lines.splice(i + 1, 0, { prefix: hanging, text: tail });
  }
  return changed;
}

/** Rewrites one file's text; returns the new text. */
export function reflowComments(text, fileName) {
  const edits = [];
  const lineStart = (pos) => text.lastIndexOf("\n", pos - 1) + 1;
  const ranges = commentRanges(text, fileName);
  const lineComments = ranges.filter((r) => r.kind === ts.SyntaxKind.SingleLineCommentTrivia);
  // Runs of whole-line // comments at the same indentation, one after another.
  const runs = [];
  for (const r of lineComments) {
    const start = lineStart(r.pos);
    const before = text.slice(start, r.pos);
    const whole = /^\s*$/.test(before);
    const prev = runs.at(-1);
    const prevEnd = prev?.at(-1);
    if (whole && prevEnd?.whole && prevEnd.indent === before && text.slice(prevEnd.end, start) === "\n") {
      prev.push({ ...r, start, indent: before, whole });
    } else runs.push([{ ...r, start, indent: before, whole }]);
  }
  for (const run of runs) {
    const first = run[0];
    const endOfLine = (pos) => {
      const n = text.indexOf("\n", pos);
      return n < 0 ? text.length : n;
    };
    const tooLong = run.some((r) => len(text.slice(r.start, endOfLine(r.pos))) > MAX);
    if (!tooLong) continue;
    if (!first.whole) {
      // A trailing comment: move it above the code, at the line's indentation.
      const indent = first.indent.match(/^\s*/)[0];
      const code = first.indent.trimEnd();
      const body = text.slice(first.pos, first.end).replace(/^\/\/\s?/, "");
      const lines = [{ prefix: `${indent}// `, text: body }];
      reflowLines(lines);
      const block = lines.map((l) => l.prefix + l.text).join("\n");
      edits.push([first.start, first.end, `${block}\n${code}`]);
      continue;
    }
    const lines = run.map((r) => {
      const m = text.slice(r.pos, r.end).match(/^(\/\/+\s?)(\s*)(.*)$/);
      return { prefix: r.indent + m[1] + m[2], text: m[3] };
    });
    if (reflowLines(lines)) edits.push([first.start, run.at(-1).end, lines.map((l) => l.prefix + l.text).join("\n")]);
  }
  for (const r of ranges.filter((c) => c.kind === ts.SyntaxKind.MultiLineCommentTrivia)) {
    const start = lineStart(r.pos);
    const before = text.slice(start, r.pos);
    if (!/^\s*$/.test(before)) continue; // after code or inside JSX braces: left alone
    const body = text.slice(r.pos, r.end);
    const rawLines = body.split("\n");
    const tooLong = rawLines.some((l, i) => len((i === 0 ? before : "") + l) > MAX);
    if (!tooLong) continue;
    const doc = body.startsWith("/**");
    if (rawLines.length === 1) {
      const inner = body.slice(doc ? 3 : 2, -2).trim();
      const lines = [{ prefix: `${before} * `, text: inner }];
      reflowLines(lines);
      const out = [`${doc ? "/**" : "/*"}`, ...lines.map((l) => l.prefix + l.text), `${before} */`].join("\n");
      edits.push([r.pos, r.end, out]);
      continue;
    }
    const lines = rawLines.map((l, i) => {
      if (i === 0 || i === rawLines.length - 1) return { raw: true, prefix: "", text: l };
      const m = l.match(/^(\s*\*\s?)(\s*)(.*)$/);
      if (!m) return { raw: true, prefix: "", text: l };
      return { prefix: m[1] + m[2], text: m[3] };
    });
    // The first and last lines (with /** and */) stay as they are; only the body reflows.
    const inner = lines.slice(1, -1);
    if (!reflowLines(inner)) continue;
    const out = [rawLines[0], ...inner.map((l) => (l.raw ? l.text : l.prefix + l.text)), rawLines.at(-1)].join("\n");
    edits.push([r.pos, r.end, out]);
  }
  edits.sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [from, to, replacement] of edits) out = out.slice(0, from) + replacement + out.slice(to);
  return out;
}

function main() {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const root = resolve(import.meta.dirname, "..");
  const named = args.filter((a) => a !== "--check");
  const listed = () =>
    execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .map((f) => resolve(root, f));
  const files = (named.length > 0 ? named : listed()).filter((a) => SCRIPT.test(a));
  let changed = 0;
  for (const file of files) {
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue; // listed by git but deleted in the work tree
    }
    const out = reflowComments(text, file);
    if (out === text) continue;
    changed++;
    if (check) console.log(file);
    else writeFileSync(file, out);
  }
  console.error(`${changed} file(s) ${check ? "would change" : "rewrapped"}`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) main();
