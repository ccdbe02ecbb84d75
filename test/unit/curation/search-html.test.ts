import { describe, expect, it } from "vitest";
import {
  CUT_MARK,
  cutToBudget,
  decodeEntities,
  htmlTitle,
  htmlToText,
} from "../../../app/domain/curation/search-html.ts";

const page = `<!doctype html><html><head><title>Harbour &amp; Port Dispute</title>
<style>p { color: red }</style><script>var x = "<p>not text</p>";</script></head>
<body><nav><a href="/">Home</a> | <a href="/news">News</a></nav>
<article><h1>Dockworkers strike</h1><p>The union&#39;s leaders met the port authority on <b>12&nbsp;March</b>.</p>
<!-- a comment --><p>Talks broke down &mdash; again.</p><ul><li>wages</li><li>automation</li></ul></article>
<footer>© Example News</footer></body></html>`;

describe("htmlToText", () => {
  it("keeps the readable text, one paragraph a line, without scripts, styles or furniture", () => {
    expect(htmlToText(page)).toBe(
      [
        "Dockworkers strike",
        "The union's leaders met the port authority on 12 March.",
        "Talks broke down — again.",
        "wages",
        "automation",
      ].join("\n"),
    );
  });

  it("reads the title and decodes entities", () => {
    expect(htmlTitle(page)).toBe("Harbour & Port Dispute");
    expect(htmlTitle("<p>no title</p>")).toBeUndefined();
    expect(decodeEntities("&#x41;&#66;&unknown;&lt;")).toBe("AB&unknown;<");
  });
});

describe("cutToBudget", () => {
  it("leaves short text alone", () => {
    expect(cutToBudget("short", 100)).toBe("short");
  });

  it("cuts at a paragraph, then a sentence, within the budget", () => {
    const text = "First paragraph is here.\nSecond paragraph goes on and on and on.";
    const cut = cutToBudget(text, 40);
    expect(cut).toBe(`First paragraph is here.${CUT_MARK}`);
    const sentences = "One sentence here. Another sentence follows. And a third one that is long.";
    const cut2 = cutToBudget(sentences, 50);
    expect(cut2).toBe(`One sentence here. Another sentence follows.${CUT_MARK}`);
    expect(cut2.length).toBeLessThanOrEqual(50);
  });

  it("never exceeds the budget, even without a boundary", () => {
    const cut = cutToBudget("x".repeat(500), 60);
    expect(cut.length).toBe(60);
    expect(cut.endsWith(CUT_MARK)).toBe(true);
  });
});
