#!/usr/bin/env node
/**
 * `npm run lint`'s line-length check: Biome wraps code at 120 columns but has no rule for what it
 * cannot wrap, so this reports every line of our code longer than 120 characters unless only
 * literal text makes it long. Exactly: a line is too long when its length, less the characters
 * that lie inside string literals, template literals (whole, from backtick to backtick, `${…}`
 * included: Biome never breaks a template literal, so what it holds is rewritten by hand or not at
 * all), regular-expression literals and URLs (http/https, as in a comment), is still over the
 * limit. Comments, JSX text and other code count in full: comments and JSX text can be rewrapped,
 * code can be broken.
 * Checked: .ts .tsx .mts .cts .js .mjs .cjs (parsed by the TypeScript compiler, so a quote inside
 * a comment or a regex is not taken for a string) and .css (strings are "…"/'…' on the line).
 * Not checked: JSON, Markdown, HTML, SQL, SVG and Python (data, prose, templates, generated).
 * Files: those git tracks, plus untracked ones git does not ignore; or the paths given.
 * Lengths count Unicode code points. Exit 1 when any line is too long.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";

export const MAX_LINE = 120;
const SCRIPT = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const CSS = /\.css$/;
const URL = /https?:\/\/[^\s"'`<>)\]]+/g;

/**
 * Character offsets [start, end) of the literals in a script: string, template (with its
 * substitutions) and regex literals.
 * @param {string} text
 * @param {string} fileName
 * @returns {[number, number][]}
 */
function scriptLiteralSpans(text, fileName) {
  const kind = /\.(tsx|jsx)$/.test(fileName)
    ? ts.ScriptKind.TSX
    : /\.(ts|mts|cts)$/.test(fileName)
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  /** @type {[number, number][]} */
  const spans = [];
  /** @param {ts.Node} node */
  const visit = (node) => {
    switch (node.kind) {
      case ts.SyntaxKind.StringLiteral:
      case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
      case ts.SyntaxKind.TemplateExpression:
      case ts.SyntaxKind.RegularExpressionLiteral:
        spans.push([node.getStart(source), node.getEnd()]);
        return;
      default:
        ts.forEachChild(node, visit);
    }
  };
  visit(source);
  return spans;
}

/**
 * Offsets of CSS strings; a CSS string cannot run over a line end without an escape.
 * @param {string} text
 * @returns {[number, number][]}
 */
function cssLiteralSpans(text) {
  return [...text.matchAll(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g)].map((m) => [m.index, m.index + m[0].length]);
}

/**
 * Lines longer than `max` when literal text is not counted, as { line (1-based), length, code }.
 * @param {string} text
 * @param {string} fileName decides the parser (by extension)
 * @param {number} [max]
 */
export function longLines(text, fileName, max = MAX_LINE) {
  const spans = CSS.test(fileName) ? cssLiteralSpans(text) : scriptLiteralSpans(text, fileName);
  const inLiteral = new Uint8Array(text.length);
  for (const [start, end] of spans) inLiteral.fill(1, start, end);
  /** @type {{ line: number, length: number, code: number }[]} */
  const found = [];
  let offset = 0;
  text.split("\n").forEach((line, i) => {
    const start = offset;
    offset += line.length + 1;
    const length = [...line].length;
    if (length <= max) return;
    const urls = new Uint8Array(line.length);
    for (const m of line.matchAll(URL)) urls.fill(1, m.index, m.index + m[0].length);
    let code = 0;
    for (let j = 0; j < line.length; j++) {
      const unit = line.charCodeAt(j);
      if (unit >= 0xdc00 && unit <= 0xdfff) continue; // the second half of a surrogate pair: one code point
      if (!inLiteral[start + j] && !urls[j]) code++;
    }
    if (code > max) found.push({ line: i + 1, length, code });
  });
  return found;
}

/** @param {string} root */
function projectFiles(root) {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  return out.split("\n").filter((f) => SCRIPT.test(f) || CSS.test(f));
}

function main() {
  const root = resolve(import.meta.dirname, "..");
  const args = process.argv.slice(2);
  const files = args.length > 0 ? args : projectFiles(root);
  let count = 0;
  for (const file of files) {
    let text;
    try {
      text = readFileSync(resolve(root, file), "utf8");
    } catch {
      continue; // listed by git but deleted in the work tree
    }
    for (const { line, length, code } of longLines(text, file)) {
      count++;
      console.log(`${file}:${line}: ${length} characters, ${code} outside literals (max ${MAX_LINE})`);
    }
  }
  if (count > 0) {
    console.log(`${count} line(s) over ${MAX_LINE} characters outside string, template and regex literals and URLs.`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) main();
