/**
 * Reads the project's own source as text for the architecture checks: which files exist, what
 * each imports, where the import graph has cycles, which functions are long. No project code runs.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import ts from "typescript";

export const ROOT = resolve(import.meta.dirname, "../..");

/** Tracked and untracked-but-not-ignored .ts/.tsx files under the given folders, relative to the root. */
export function sourceFiles(...folders: string[]): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", ...folders], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return out
    .split("\n")
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts"))
    .filter((f) => {
      try {
        readFileSync(resolve(ROOT, f));
        return true;
      } catch {
        return false; // deleted in the work tree
      }
    });
}

export function readSource(file: string): string {
  return readFileSync(resolve(ROOT, file), "utf8");
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
export function importSpecifiers(source: string): string[] {
  return [
    ...source.matchAll(
      /(?:^|[\n;])\s*(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|\bimport\s*\(\s*"([^"]+)"\s*\)|(?:^|\n)\s*import\s*"([^"]+)"/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** A relative specifier resolved to a root-relative path (imports carry their extension here). */
export function resolveImport(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  return relative(ROOT, resolve(ROOT, dirname(fromFile), specifier));
}

/** Strongly connected groups of more than one file (or a file importing itself): the import cycles. */
export function importCycles(files: string[]): string[][] {
  const known = new Set(files);
  const edges = new Map(
    files.map((f) => [
      f,
      importSpecifiers(readSource(f))
        .map((s) => resolveImport(f, s))
        .filter((t): t is string => t !== null && known.has(t)),
    ]),
  );
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || edges.get(v)!.includes(v)) cycles.push(group);
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return cycles;
}

/** Functions (declarations, arrows, methods) longer than `maxLines`, as "file:line name (n lines)". */
export function longFunctions(file: string, maxLines: number): string[] {
  const source = ts.createSourceFile(
    file,
    readSource(file),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const nameOf = (node: ts.Node): string => {
    const named = (node as { name?: ts.Node }).name;
    if (named) return named.getText(source);
    const parent = node.parent;
    if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
      return parent.name.getText(source);
    return "(anonymous)";
  };
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node)
    ) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
      if (lines > maxLines) found.push(`${file}:${lineOf(node.getStart(source))} ${nameOf(node)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every tracked (or untracked, not ignored) file under the given folders, of any kind, present in the work tree. */
export function trackedFiles(...folders: string[]): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", ...folders], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return out.split("\n").filter((f) => f !== "" && existsSync(resolve(ROOT, f)));
}
