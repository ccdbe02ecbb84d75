/**
 * Exports that nothing imports, found on the source text with the TypeScript parser (no type
 * checker, no project code runs). An export counts as used when any file of the project —
 * tests included — imports it by name, re-exports it, takes it from a dynamic import
 * (`(await import("x")).name`, `const { name } = await import("x")`), names it in an import type
 * (`import("x").Name`) or reads it off a namespace import (`ns.name`); a namespace or dynamic
 * import used any other way uses every export. `export * from` passes names through. Remix reads
 * a route module's conventional exports itself, so those count as used.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";
import { ROOT } from "./source-tree.ts";

/** The folders whose exports are checked (some appear only after issue 30's moves). */
export const CHECKED_FOLDERS = ["app", "scripts", "db", "bench", "demo", "harness"];

/** Exports Remix reads from route modules and the entry files (app/routes/*, app/root.tsx, app/entry.*). */
const REMIX_EXPORTS = new Set([
  "default",
  "loader",
  "action",
  "meta",
  "links",
  "headers",
  "handle",
  "ErrorBoundary",
  "HydrateFallback",
  "Layout",
  "shouldRevalidate",
  "clientLoader",
  "clientAction",
  "handleError",
  "handleDataRequest",
  "streamTimeout",
]);
const isRemixModule = (file: string) =>
  file.startsWith("app/routes/") || /^app\/(root|entry\.(server|client))\.tsx?$/.test(file);

const ALL = "*";

interface ModuleFacts {
  /** Names this module exports itself, with the line that exports each. */
  exports: Map<string, number>;
  /** `export * from` targets. */
  starFrom: string[];
  /** (target module, name) pairs this module uses; name ALL for every export. */
  uses: [string, string][];
  /** Identifiers the module refers to (not declares, not a property name), by name. */
  refers: Set<string>;
}

function resolveSpecifier(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  return relative(ROOT, resolve(ROOT, dirname(fromFile), specifier.replace(/\?.*$/, "")));
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

/** What a dynamic `import("x")` takes: the property read off its awaited value, the names destructured, or ALL. */
function dynamicImportNames(call: ts.CallExpression): string[] {
  let node: ts.Node = call;
  if (ts.isAwaitExpression(node.parent)) node = node.parent;
  while (ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node) return [parent.name.text];
  if (ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name)) {
    const names = parent.name.elements.map((e) => (e.propertyName ?? e.name) as ts.Node);
    if (names.every(ts.isIdentifier) && !parent.name.elements.some((e) => e.dotDotDotToken))
      return names.map((n) => (n as ts.Identifier).text);
  }
  return [ALL];
}

/** The names read off a namespace import `ns`, or ALL when `ns` is used other than as `ns.name`. */
function namespaceNames(source: ts.SourceFile, ns: string): string[] {
  const names = new Set<string>();
  let whole = false;
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && node.text === ns && !ts.isNamespaceImport(node.parent)) {
      const p = node.parent;
      if ((ts.isPropertyAccessExpression(p) && p.expression === node) || (ts.isQualifiedName(p) && p.left === node)) {
        names.add(ts.isPropertyAccessExpression(p) ? p.name.text : (p as ts.QualifiedName).right.text);
      } else whole = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return whole ? [ALL] : [...names];
}

/** An identifier that refers to a binding: not the name a declaration, an export or a property introduces. */
function isReference(node: ts.Identifier): boolean {
  const p = node.parent;
  if (ts.isExportSpecifier(p) || ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p))
    return false;
  if (ts.isPropertyAccessExpression(p) && p.name === node) return false;
  if (ts.isQualifiedName(p) && p.right === node) return false;
  if (ts.isPropertyAssignment(p) && p.name === node) return false;
  const declared = (p as { name?: ts.Node }).name === node;
  return !(
    declared &&
    (ts.isDeclarationStatement(p) ||
      ts.isVariableDeclaration(p) ||
      ts.isBindingElement(p) ||
      ts.isParameter(p) ||
      ts.isPropertySignature(p) ||
      ts.isPropertyDeclaration(p) ||
      ts.isMethodDeclaration(p) ||
      ts.isMethodSignature(p) ||
      ts.isEnumMember(p) ||
      ts.isTypeParameterDeclaration(p) ||
      ts.isClassExpression(p) ||
      ts.isFunctionExpression(p) ||
      ts.isGetAccessor(p) ||
      ts.isSetAccessor(p))
  );
}

function moduleFacts(file: string, text: string): ModuleFacts {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : /\.m?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const facts: ModuleFacts = { exports: new Map(), starFrom: [], uses: [], refers: new Set() };
  const line = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const use = (specifier: string, names: string[]) => {
    const target = resolveSpecifier(file, specifier);
    if (target) for (const n of names) facts.uses.push([target, n]);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const specifier = statement.moduleSpecifier.text;
      if (clause?.name) use(specifier, ["default"]);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        use(
          specifier,
          bindings.elements.map((e) => (e.propertyName ?? e.name).text),
        );
      if (bindings && ts.isNamespaceImport(bindings)) use(specifier, namespaceNames(source, bindings.name.text));
    } else if (ts.isExportDeclaration(statement)) {
      const from =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : null;
      const clause = statement.exportClause;
      if (!clause && from) {
        const target = resolveSpecifier(file, from);
        if (target) facts.starFrom.push(target);
      } else if (clause && ts.isNamespaceExport(clause)) {
        facts.exports.set(clause.name.text, line(statement));
        if (from) use(from, [ALL]);
      } else if (clause && ts.isNamedExports(clause)) {
        for (const e of clause.elements) {
          facts.exports.set(e.name.text, line(e));
          if (from) use(from, [(e.propertyName ?? e.name).text]);
        }
      }
    } else if (ts.isExportAssignment(statement)) {
      facts.exports.set("default", line(statement));
    } else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      if (hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) facts.exports.set("default", line(statement));
      else if (ts.isVariableStatement(statement)) {
        for (const d of statement.declarationList.declarations)
          for (const n of bindingNames(d.name)) facts.exports.set(n, line(d));
      } else {
        const name = (statement as ts.DeclarationStatement).name;
        if (name && ts.isIdentifier(name)) facts.exports.set(name.text, line(statement));
      }
    }
  }
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) use(arg.text, dynamicImportNames(node));
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      let q = node.qualifier;
      while (q && ts.isQualifiedName(q)) q = q.left;
      use(node.argument.literal.text, [q ? q.text : ALL]);
    } else if (ts.isIdentifier(node) && isReference(node)) facts.refers.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return facts;
}

/** The project's .ts, .tsx and .mjs files (tracked, or untracked and not ignored), relative to the root. */
function projectModules(): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return out.split("\n").filter((f) => /\.(tsx?|mjs)$/.test(f) && !f.endsWith(".d.ts") && existsSync(resolve(ROOT, f)));
}

/** Every export in the checked folders that nothing uses, as "file:line name" (see findUnusedExports). */
export function unusedExports(): string[] {
  return findUnusedExports(new Map(projectModules().map((f) => [f, readFileSync(resolve(ROOT, f), "utf8")])));
}

/**
 * The exports of the modules in the checked folders that nothing uses, as "file:line name",
 * sorted: imported by no module and not referred to in their own (an export used only at home
 * is left alone). `modules` maps every project file, relative to the root, to its text.
 */
export function findUnusedExports(modules: ReadonlyMap<string, string>): string[] {
  const facts = new Map([...modules].map(([f, text]) => [f, moduleFacts(f, text)]));
  const used = new Set<string>();
  const mark = (target: string, name: string, seen = new Set<string>()) => {
    const key = `${target}\0${name}`;
    if (seen.has(key)) return;
    seen.add(key);
    const f = facts.get(target);
    if (!f) return;
    if (name === ALL) {
      for (const n of f.exports.keys()) used.add(`${target}\0${n}`);
      for (const s of f.starFrom) mark(s, ALL, seen);
      return;
    }
    used.add(key);
    if (!f.exports.has(name)) for (const s of f.starFrom) mark(s, name, seen);
  };
  for (const f of facts.values()) for (const [target, name] of f.uses) mark(target, name);
  const checked = (file: string) => CHECKED_FOLDERS.some((d) => file.startsWith(`${d}/`));
  const unused: string[] = [];
  for (const [file, f] of facts) {
    if (!checked(file)) continue;
    for (const [name, at] of f.exports) {
      if (used.has(`${file}\0${name}`) || f.refers.has(name)) continue;
      if (isRemixModule(file) && REMIX_EXPORTS.has(name)) continue;
      unused.push(`${file}:${at} ${name}`);
    }
  }
  return unused.sort();
}
