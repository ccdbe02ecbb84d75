/**
 * The dead-export finder of the architecture test (test/helpers/unused-exports.ts) on small
 * made-up projects: each way of using an export counts, and an export nothing uses is found.
 */
import { describe, expect, it } from "vitest";
import { findUnusedExports } from "../helpers/unused-exports.ts";

const find = (modules: Record<string, string>) => findUnusedExports(new Map(Object.entries(modules)));

describe("findUnusedExports", () => {
  it("finds an export that nothing imports and its module does not use", () => {
    const unused = find({
      "app/a.ts": "export const used = 1;\nexport const dead = 2;\nexport function home() {}\nhome();\n",
      "app/b.ts": 'import { used } from "./a.ts";\nconsole.log(used);\n',
    });
    expect(unused).toEqual(["app/a.ts:2 dead"]);
  });

  it("counts named, aliased, default, type and test imports, and export lists", () => {
    const unused = find({
      "app/a.ts": [
        "export const x = 1;",
        "export type T = number;",
        "export default function f() {}",
        "const y = 2;",
        "export { y as z };",
        "export interface OnlyTests {}",
      ].join("\n"),
      "scripts/b.ts":
        'import f, { x as renamed, type T, z } from "../app/a.ts";\nconsole.log(f, renamed, z);\nlet t: T;\n',
      "test/unit/c.test.ts": 'import type { OnlyTests } from "../../app/a.ts";\n',
    });
    expect(unused).toEqual([]);
  });

  it("follows re-exports and export *, and reports a re-export nobody takes", () => {
    const unused = find({
      "app/impl.ts": "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n",
      "app/index.ts": 'export * from "./impl.ts";\n',
      "app/named.ts": 'export { c } from "./impl.ts";\nexport { b as again } from "./impl.ts";\n',
      "app/user.ts": 'import { a } from "./index.ts";\nimport { c } from "./named.ts";\nconsole.log(a, c);\n',
    });
    expect(unused).toEqual(["app/named.ts:2 again"]);
  });

  it("reads namespace imports and dynamic imports by the names taken off them", () => {
    const unused = find({
      "app/a.ts": "export const p = 1;\nexport const q = 2;\nexport const r = 3;\nexport const s = 4;\n",
      "app/ns.ts": 'import * as m from "./a.ts";\nconsole.log(m.p);\n',
      "app/dyn.ts":
        'const v = (await import("./a.ts")).q;\nconst { r } = await import("./a.ts");\nconsole.log(v, r);\n',
    });
    expect(unused).toEqual(["app/a.ts:4 s"]);
  });

  it("counts every export used when a namespace or a dynamic import is used whole", () => {
    const whole = { "app/a.ts": "export const p = 1;\nexport const q = 2;\n" };
    expect(find({ ...whole, "app/ns.ts": 'import * as m from "./a.ts";\nconsole.log(Object.keys(m));\n' })).toEqual([]);
    expect(
      find({ ...whole, "scripts/d.mjs": 'const mod = await import("../app/a.ts");\nconsole.log(mod);\n' }),
    ).toEqual([]);
  });

  it("counts import types, and leaves Remix's route exports to Remix", () => {
    const unused = find({
      "app/types.ts": "export interface Shape {}\nexport interface Other {}\n",
      "app/use.ts": 'let s: import("./types.ts").Shape;\n',
      "app/routes/page.tsx":
        "export function loader() {}\nexport const meta = () => [];\nexport default function Page() {}\n",
    });
    expect(unused).toEqual(["app/types.ts:2 Other"]);
  });

  it("checks only the app, scripts, db, bench, demo and harness folders", () => {
    expect(
      find({ "test/helpers/x.ts": "export const lonely = 1;\n", "harness/h.ts": "export const alone = 1;\n" }),
    ).toEqual(["harness/h.ts:1 alone"]);
  });
});
