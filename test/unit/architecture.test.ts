/**
 * The house rules of docs/architecture.md, checked on the source text so they stay true: the
 * layers import only downwards, SQL stays in the server's repositories, no import cycles, one
 * import style, one file-naming style, no function over 100 lines.
 */
import { existsSync } from "node:fs";
import { basename, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  importCycles,
  importSpecifiers,
  longFunctions,
  readSource,
  resolveImport,
  ROOT,
  sourceFiles,
  trackedFiles,
} from "../helpers/source-tree.ts";

const APP_AND_TOOLS = sourceFiles("app", "scripts", "db", "demo", "bench");

/**
 * What tests and benchmarks share (temporary databases, the built app, Chromium, logins). It keeps
 * the import, naming, cycle and size rules, not the SQL rules: like test/, it reads and writes
 * databases directly to set up and check them.
 */
const HARNESS = sourceFiles("harness");

/** Module files of every kind (TypeScript and the plain-JavaScript entry points) outside test/. */
const OUTSIDE_TEST = trackedFiles().filter(
  (f) => !f.startsWith("test/") && /\.(tsx?|mjs|cjs|js)$/.test(f) && !f.endsWith(".d.ts"),
);

/** The folders where one extension is one folder (or one file) plus a registry line. */
const EXTENSION_FOLDERS = ["app/task-types", "app/crowd-channels", "app/llm-roles", "app/report-parts"];

/** What pure code (app/domain, and the pure files of extension folders) may not import. */
const PURE_FORBIDDEN = (t: string) =>
  /^(app\/server|app\/components|app\/routes|db)\//.test(t) ||
  /^(node:|react|@remix-run|better-sqlite3|drizzle-orm)/.test(t) ||
  /\.(server\.ts|tsx)$/.test(t);

/** Files of a folder and what each imports, resolved to root-relative paths where relative. */
function importsOf(folder: string) {
  return sourceFiles(folder).map((file) => ({
    file,
    specifiers: importSpecifiers(readSource(file)),
    targets: importSpecifiers(readSource(file)).map((s) => resolveImport(file, s) ?? s),
  }));
}

function offenders(folder: string, forbidden: (target: string) => boolean): string[] {
  return importsOf(folder).flatMap(({ file, targets }) => targets.filter(forbidden).map((t) => `${file} imports ${t}`));
}

/** The text of a route module's loader, from its declaration to the next top-level declaration. */
function loaderBody(source: string): string | null {
  const start = source.search(/^export (async )?function loader\b|^export const loader\b/m);
  if (start < 0) return null;
  const rest = source.slice(start + 1);
  const end = rest.search(/^(export |function |const |\/\*\*)/m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The modules that open, transact on and tell apart the two engines' connections. */
const CONNECTION_MODULES = [
  "app/server/db.server.ts",
  "app/server/db-dialect.server.ts",
  "app/server/db-pg.server.ts",
  "app/server/db-transaction.server.ts",
];

describe("layers", () => {
  it("app/domain is pure: nothing from the server, the database, node:*, React, Remix or components", () => {
    expect(offenders("app/domain", PURE_FORBIDDEN)).toEqual([]);
  });

  it("app/server imports nothing from components or routes", () => {
    expect(offenders("app/server", (t) => /^app\/(components|routes)\//.test(t))).toEqual([]);
  });

  it("components import nothing from the server", () => {
    expect(offenders("app/components", (t) => t.startsWith("app/server/") || t.endsWith(".server.ts"))).toEqual([]);
  });

  it("routes hold no SQL: no drizzle, schema or raw connection", () => {
    const sqlInRoutes = sourceFiles("app/routes").filter((f) =>
      /drizzle-orm|db\/schema\.ts|\$client|\bsql`/.test(readSource(f)),
    );
    expect(sqlInRoutes).toEqual([]);
  });

  it("route actions read bodies with readForm (a malformed body is a 400), never request.formData()/json()/text() directly", () => {
    const direct = sourceFiles("app/routes").filter((f) =>
      /\brequest\s*\.\s*(formData|json|text|arrayBuffer|blob)\s*\(/.test(readSource(f)),
    );
    expect(direct).toEqual([]);
  });

  it("no raw better-sqlite3 statements outside the connection modules: data access goes through drizzle", () => {
    const raw = APP_AND_TOOLS.filter(
      (f) => !CONNECTION_MODULES.includes(f) && /\$client\s*\.\s*(prepare|exec)\(/.test(readSource(f)),
    );
    expect(raw).toEqual([]);
  });

  it("queries are built only in the repositories (app/server/models), the bundle store and the research read model", () => {
    // bundle-store: bulk import/export of the whole bundle; catalog: joined read views for the research pages.
    const allowed = (f: string) =>
      f.startsWith("app/server/models/") ||
      [...CONNECTION_MODULES, "app/server/bundle-store.server.ts", "app/server/catalog.server.ts"].includes(f);
    const building = sourceFiles("app", "demo", "scripts").filter(
      (f) =>
        !allowed(f) &&
        importSpecifiers(readSource(f)).some(
          (s) => s.startsWith("drizzle-orm") || s.endsWith("db/schema.ts") || s.endsWith("/schema.ts"),
        ),
    );
    expect(building).toEqual([]);
  });

  it("every module in app/server is server-only (*.server.ts)", () => {
    expect(sourceFiles("app/server").filter((f) => !f.endsWith(".server.ts"))).toEqual([]);
  });

  it("loaders write nothing (issue 29: a GET changes nothing), save the task page's one documented first-showing stamp", () => {
    // Every web write runs under the write lock (orResponseWrite/actionResult) or opens a
    // transaction; these are the services that lease, enter, complete or stamp.
    const WRITES =
      /\b(orResponseWrite|actionResult|withWriteLock|writeTransaction|startSession|endSession|nextTask|takeNextStep|recordItemShown|findOrCreateCrowdWorker|saveTaskWork)\s*\(|\.(enter|finish|submit|saveDraft)\s*\(/g;
    const ALLOWED: Record<string, string[]> = {
      "app/routes/annotate.$studyId.items.$itemId.tsx": ["orResponseWrite(", "recordItemShown("],
    };
    const found: Record<string, string[]> = {};
    for (const file of sourceFiles("app/routes")) {
      const body = loaderBody(readSource(file));
      const calls = body ? [...body.matchAll(WRITES)].map((m) => m[0].replace(/^\./, "").replace(/\s+/g, "")) : [];
      if (calls.length > 0) found[file] = calls;
    }
    expect(found).toEqual(ALLOWED);
  });

  it("extension folders (one folder per task type, crowd channel, LLM role; one file per report part) keep the layers", () => {
    // Inside app/task-types, app/crowd-channels, app/llm-roles and app/report-parts a file's
    // suffix says its layer: *.server.ts is server code, *.tsx is a component, anything else is
    // pure and follows app/domain's rule.
    const files = sourceFiles(...EXTENSION_FOLDERS);
    const bad = files.flatMap((file) => {
      const targets = importSpecifiers(readSource(file)).map((s) => resolveImport(file, s) ?? s);
      const isServer = file.endsWith(".server.ts");
      const isComponent = file.endsWith(".tsx");
      const forbidden = isServer
        ? (t: string) => /^app\/(components|routes)\//.test(t) || /\.tsx$/.test(t)
        : isComponent
          ? (t: string) => t.startsWith("app/server/") || t.endsWith(".server.ts")
          : PURE_FORBIDDEN;
      return targets.filter(forbidden).map((t) => `${file} imports ${t}`);
    });
    expect(bad).toEqual([]);
  });

  it("the import graph has no cycles", () => {
    expect(importCycles(sourceFiles("app", "scripts", "db", "demo", "harness", "bench"))).toEqual([]);
  });
});

describe("top-level folders", () => {
  it("db/ holds only the schema, its PostgreSQL mirror and their migrations (the lowest layer)", () => {
    const allowed = (f: string) =>
      f === "db/schema.ts" ||
      f === "db/schema-pg.ts" ||
      f.startsWith("db/migrations/") ||
      f.startsWith("db/migrations-pg/");
    expect(trackedFiles("db").filter((f) => !allowed(f))).toEqual([]);
  });

  it("demo/ sits at the top: it may import app/ (server included), and nothing in app/ or db/ imports it", () => {
    const below = [...offenders("app", (t) => t.startsWith("demo/")), ...offenders("db", (t) => t.startsWith("demo/"))];
    expect(below).toEqual([]);
    // The demo is data and its seeding: the CLI, the harness and the benchmarks use it, not the reverse.
    expect(offenders("demo", (t) => /^(scripts|harness|bench)\//.test(t))).toEqual([]);
  });

  it("no file outside test/ imports from test/: what tests and benchmarks share lives in harness/", () => {
    const fromTest = OUTSIDE_TEST.flatMap((file) =>
      importSpecifiers(readSource(file))
        .map((s) => resolveImport(file, s) ?? s)
        .filter((t) => t.startsWith("test/"))
        .map((t) => `${file} imports ${t}`),
    );
    expect(fromTest).toEqual([]);
  });
});

describe("docs/architecture.md", () => {
  it("names only paths that exist, and stays short", () => {
    const text = readSource("docs/architecture.md");
    const named = [...text.matchAll(/`((?:app|db|scripts|docs|test|bench|demo|harness)\/[^`\s]*)`/g)].map((m) => m[1]);
    const missing = named.filter((p) => !p.includes("<") && !existsSync(resolve(ROOT, p)));
    expect(named.length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
    expect(text.split("\n").length).toBeLessThanOrEqual(150);
  });
});

describe("style", () => {
  it("one import style: relative specifiers carry their .ts/.tsx extension; no ~ alias", () => {
    const bad = [...APP_AND_TOOLS, ...HARNESS, ...sourceFiles("test")].flatMap((file) =>
      importSpecifiers(readSource(file))
        .filter((s) => s.startsWith("~") || (s.startsWith(".") && !/\.(tsx?|css\?url|json|mjs)$/.test(s)))
        .map((s) => `${file}: "${s}"`),
    );
    expect(bad).toEqual([]);
  });

  it("one file-naming style: kebab-case modules, PascalCase components, useX hooks, Remix route names", () => {
    const ok = (file: string) => {
      const name = basename(file).replace(/\.(server\.)?tsx?$/, "");
      if (file.startsWith("app/routes/")) return true; // Remix's own convention ($param, dots, [.])
      if (file.endsWith(".tsx") && /^[A-Z][A-Za-z0-9]*$/.test(name)) return true;
      if (/^use[A-Z][A-Za-z0-9]*$/.test(name)) return true;
      return /^[a-z0-9]+(-[a-z0-9]+)*$/.test(name);
    };
    expect([...APP_AND_TOOLS, ...HARNESS].filter((f) => !ok(f))).toEqual([]);
  });

  it("no function over 100 lines in the app, the CLI, the database code, the demo or the harness", () => {
    expect(sourceFiles("app", "scripts", "db", "demo", "harness").flatMap((f) => longFunctions(f, 100))).toEqual([]);
  });
});
