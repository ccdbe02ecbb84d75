import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown, safeHref } from "../../../app/domain/markdown.ts";

describe("parseMarkdown blocks", () => {
  it("reads headings, paragraphs joined by spaces, and both kinds of list", () => {
    const source = [
      "# Judging reactiveness",
      "",
      "A composed negotiator stays calm",
      "even when provoked.",
      "",
      "## Signs",
      "- raised tone",
      "* personal remarks",
      "+ threats to leave",
      "",
      "3. read both",
      "4) pick one",
    ].join("\n");
    expect(parseMarkdown(source)).toEqual([
      { type: "heading", level: 1, children: [{ type: "text", text: "Judging reactiveness" }] },
      { type: "paragraph", children: [{ type: "text", text: "A composed negotiator stays calm even when provoked." }] },
      { type: "heading", level: 2, children: [{ type: "text", text: "Signs" }] },
      {
        type: "list",
        ordered: false,
        start: 1,
        items: [
          [{ type: "text", text: "raised tone" }],
          [{ type: "text", text: "personal remarks" }],
          [{ type: "text", text: "threats to leave" }],
        ],
      },
      {
        type: "list",
        ordered: true,
        start: 3,
        items: [[{ type: "text", text: "read both" }], [{ type: "text", text: "pick one" }]],
      },
    ]);
  });

  it("continues a list item on the next line, ends a list at a blank line, and splits lists of different kinds", () => {
    const blocks = parseMarkdown("- first\n  still first\n1. numbered\n\nafter");
    expect(blocks).toEqual([
      { type: "list", ordered: false, start: 1, items: [[{ type: "text", text: "first still first" }]] },
      { type: "list", ordered: true, start: 1, items: [[{ type: "text", text: "numbered" }]] },
      { type: "paragraph", children: [{ type: "text", text: "after" }] },
    ]);
  });

  it("needs a space after # and after a bullet marker; CRLF is fine; closing #s are dropped", () => {
    expect(parseMarkdown("#hashtag\r\n*emphasis* here\r\n### Title ##")).toEqual([
      {
        type: "paragraph",
        children: [
          { type: "text", text: "#hashtag " },
          { type: "em", children: [{ type: "text", text: "emphasis" }] },
          { type: "text", text: " here" },
        ],
      },
      { type: "heading", level: 3, children: [{ type: "text", text: "Title" }] },
    ]);
    expect(parseMarkdown("# C#")).toEqual([{ type: "heading", level: 1, children: [{ type: "text", text: "C#" }] }]);
    expect(parseMarkdown("")).toEqual([]);
    expect(parseMarkdown("\n \n")).toEqual([]);
  });

  it("keeps raw HTML as literal text", () => {
    const blocks = parseMarkdown('<script>alert("x")</script>\n\n<img src=x onerror=alert(1)>');
    expect(blocks).toEqual([
      { type: "paragraph", children: [{ type: "text", text: '<script>alert("x")</script>' }] },
      { type: "paragraph", children: [{ type: "text", text: "<img src=x onerror=alert(1)>" }] },
    ]);
  });
});

describe("parseInline", () => {
  it("parses bold, italic (both markers), code, and nesting", () => {
    expect(parseInline("a **bold *and italic*** b _it_ `x *not* y`")).toEqual([
      { type: "text", text: "a " },
      {
        type: "strong",
        children: [
          { type: "text", text: "bold " },
          { type: "em", children: [{ type: "text", text: "and italic" }] },
        ],
      },
      { type: "text", text: " b " },
      { type: "em", children: [{ type: "text", text: "it" }] },
      { type: "text", text: " " },
      { type: "code", text: "x *not* y" },
    ]);
    expect(parseInline("***both***")).toEqual([
      { type: "strong", children: [{ type: "em", children: [{ type: "text", text: "both" }] }] },
    ]);
    expect(parseInline("*a **b** c*")).toEqual([
      {
        type: "em",
        children: [
          { type: "text", text: "a " },
          { type: "strong", children: [{ type: "text", text: "b" }] },
          { type: "text", text: " c" },
        ],
      },
    ]);
  });

  it("leaves unclosed markers, snake_case and escaped characters as text", () => {
    expect(parseInline("2 * 3 and **open and `tick")).toEqual([{ type: "text", text: "2 * 3 and **open and `tick" }]);
    expect(parseInline("use party_id_here")).toEqual([{ type: "text", text: "use party_id_here" }]);
    expect(parseInline("\\*not italic\\*")).toEqual([{ type: "text", text: "*not italic*" }]);
  });

  it("makes http(s) links and drops every other link but keeps its words", () => {
    expect(parseInline("see [the **rubric**](https://example.org/r?a=1) now")).toEqual([
      { type: "text", text: "see " },
      {
        type: "link",
        href: "https://example.org/r?a=1",
        children: [
          { type: "text", text: "the " },
          { type: "strong", children: [{ type: "text", text: "rubric" }] },
        ],
      },
      { type: "text", text: " now" },
    ]);
    for (const url of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,<b>x</b>",
      "/relative",
      "vbscript:x",
      "mailto:a@b.c",
      "//evil.example/x",
    ]) {
      expect(parseInline(`[click](${url})`), url).toEqual([{ type: "text", text: "click" }]);
    }
    // A destination with a space is not a link at all; it stays text.
    expect(parseInline("[click]( javascript:alert(1))")).toEqual([
      { type: "text", text: "[click]( javascript:alert(1))" },
    ]);
    expect(parseInline("[not a link] (https://x.org)")).toEqual([
      { type: "text", text: "[not a link] (https://x.org)" },
    ]);
    expect(parseInline("[wiki](https://en.wikipedia.org/wiki/Mediation_(law)).")).toEqual([
      {
        type: "link",
        href: "https://en.wikipedia.org/wiki/Mediation_(law)",
        children: [{ type: "text", text: "wiki" }],
      },
      { type: "text", text: "." },
    ]);
    expect(parseInline("[spaced](https://x.org/a b)")).toEqual([{ type: "text", text: "[spaced](https://x.org/a b)" }]);
  });

  it("stays literal for long runs of unclosed markers", () => {
    const stars = "*".repeat(20_001);
    const text = parseInline(stars)
      .map((n) => (n.type === "text" ? n.text : ""))
      .join("");
    expect(text).toBe(stars);
    expect(parseInline("[".repeat(5000))).toEqual([{ type: "text", text: "[".repeat(5000) }]);
  });
});

describe("safeHref", () => {
  it("accepts absolute http and https URLs only, normalised", () => {
    expect(safeHref("https://example.org")).toBe("https://example.org/");
    expect(safeHref("HTTP://Example.org/a b")).toBeNull();
    expect(safeHref("http://example.org/a%20b")).toBe("http://example.org/a%20b");
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("https://")).toBeNull();
    expect(safeHref("ftp://example.org")).toBeNull();
  });
});
