/**
 * The line-length check of `npm run lint` (scripts/lint-line-length.mjs): which long lines it
 * reports (code, comments, JSX text) and which it lets pass (literal text, URLs).
 */
import { describe, expect, it } from "vitest";
import { longLines } from "../../scripts/lint-line-length.mjs";

const pad = (n: number, c = "x") => c.repeat(n);
const lineNumbers = (text: string, file = "a.ts") => longLines(text, file).map((l) => l.line);

describe("longLines", () => {
  it("reports code over 120 characters and lets 120 pass", () => {
    const at120 = `const a = ${pad(109)};`;
    const at121 = `const a = ${pad(110)};`;
    expect(at120).toHaveLength(120);
    expect(lineNumbers(`${at120}\n${at121}\n`)).toEqual([2]);
    expect(longLines(at121, "a.ts")).toEqual([{ line: 1, length: 121, code: 121 }]);
  });

  it("does not count the text of string, template and regex literals", () => {
    const source = [
      `throw new Error("${pad(150)}");`,
      `const t = \`${pad(150)}\`;`,
      `const r = /${pad(150)}/;`,
      "const m = `",
      `${pad(200)}`,
      "`;",
      `<div className="${pad(150)}" />;`,
    ].join("\n");
    expect(lineNumbers(source, "a.tsx")).toEqual([]);
  });

  it("counts a template literal whole, its substitutions included, and the code around it in full", () => {
    const template = `\`short \${${pad(60, "a")} + ${pad(60, "b")}} text\``;
    expect(lineNumbers(`const t = ${template};`)).toEqual([]);
    const around = `${pad(125, "c")}(${template});`;
    expect(longLines(around, "a.ts")).toEqual([{ line: 1, length: around.length, code: 128 }]);
  });

  it("counts comments and JSX text in full, save a URL", () => {
    const source = [
      `// ${pad(130)}`,
      ` * ${pad(130)}`,
      `// see https://example.org/${pad(130)}`,
      `const e = <p>${pad(130)}</p>;`,
    ].join("\n");
    expect(lineNumbers(`/**\n${source.split("\n")[1]}\n */\n${source}`, "a.tsx")).toEqual([2, 4, 5, 7]);
  });

  it("does not take a quote in a comment for the start of a string", () => {
    expect(lineNumbers(`// it's "${pad(130)}"\nconst x = 1;`)).toEqual([1]);
    expect(lineNumbers(`const q = "it's"; // ${pad(130)}`)).toEqual([1]);
  });

  it("counts Unicode code points, not UTF-16 units", () => {
    expect(lineNumbers(`// ${pad(110, "😀")}`)).toEqual([]);
    expect(lineNumbers(`// ${pad(118, "😀")}`)).toEqual([1]);
  });

  it("checks CSS, leaving its strings out", () => {
    const css = [`.a { font-family: "${pad(150)}"; }`, `.b { ${pad(130, "c")}: 1; }`].join("\n");
    expect(lineNumbers(css, "s.css")).toEqual([2]);
  });
});
