/**
 * The comment rewrapper (scripts/reflow-comments.mjs): long comment lines come back at most 120
 * characters wide with their indentation and prefix, the words in the same order, code untouched.
 */
import { describe, expect, it } from "vitest";
import { reflowComments } from "../../scripts/reflow-comments.mjs";

const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(" ");
const widest = (text: string) => Math.max(...text.split("\n").map((l) => [...l].length));
const wordsOf = (text: string) => text.match(/word\d+/g) ?? [];

describe("reflowComments", () => {
  it("rewraps a run of // lines, pushing the overflow into the next line of the paragraph", () => {
    const source = `function f() {\n  // ${words(30)}\n  // ${words(3, 30)}\n  return 1;\n}\n`;
    const out: string = reflowComments(source, "a.ts");
    expect(widest(out)).toBeLessThanOrEqual(120);
    expect(wordsOf(out)).toEqual(wordsOf(source));
    const comment = out.split("\n").filter((l) => l.includes("word"));
    expect(comment.every((l) => l.startsWith("  // word"))).toBe(true);
    // 33 words of about 7 characters fit in two lines: the overflow joined the second line, no third.
    expect(comment).toHaveLength(2);
    expect(comment[1].endsWith("word32")).toBe(true);
    expect(out.endsWith("  return 1;\n}\n")).toBe(true);
  });

  it("keeps the * prefix of a doc block, and a list item's hanging indent", () => {
    const source = `/**\n * Intro.\n * - ${words(25)}\n * - short\n */\nexport const x = 1;\n`;
    const out: string = reflowComments(source, "a.ts");
    expect(widest(out)).toBeLessThanOrEqual(120);
    expect(out.split("\n").slice(0, 6)).toEqual([
      "/**",
      " * Intro.",
      expect.stringMatching(/^ \* - word0 .* word\d+$/),
      expect.stringMatching(/^ \* {3}word\d+/),
      " * - short",
      " */",
    ]);
    expect(wordsOf(out)).toEqual(wordsOf(source));
  });

  it("turns a long one-line /** */ into a block", () => {
    const source = `  /** ${words(25)} */\n  x: number;\n`;
    const out: string = reflowComments(`interface A {\n${source}}\n`, "a.ts");
    expect(out.split("\n")[1]).toBe("  /**");
    expect(out).toContain("\n   */\n  x: number;\n");
    expect(widest(out)).toBeLessThanOrEqual(120);
  });

  it("moves a long trailing // comment above its code", () => {
    const source = `  const a = 1; // ${words(25)}\n`;
    const out: string = reflowComments(`{\n${source}}\n`, "a.ts");
    expect(out.split("\n").at(-3)).toBe("  const a = 1;");
    expect(out.split("\n")[1].startsWith("  // word0")).toBe(true);
    expect(widest(out)).toBeLessThanOrEqual(120);
  });

  it("leaves strings, short comments and unbreakable URLs alone", () => {
    const source = [`const s = "// ${words(30)}";`, "// short", `// https://example.org/${"x".repeat(130)}`, ""].join(
      "\n",
    );
    expect(reflowComments(source, "a.ts")).toBe(source);
  });
});
