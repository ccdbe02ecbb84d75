import { describe, expect, it } from "vitest";
import { checkJsonShape, decodeUtf8, firstInvalidUtf8 } from "../../app/domain/bundle-input.ts";

const bytes = (hex: string) => new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16)));

// Offsets, lines and byte columns of the first undecodable byte, from Python 3's strict UTF-8
// decoder (UnicodeDecodeError.start) on the same bytes.
const PYTHON_REFERENCE: { name: string; hex: string; offset: number; line: number; column: number }[] = [
  { name: "a Latin-1 é", hex: "7b2261223a22636166e9227d", offset: 9, line: 1, column: 10 },
  { name: "an overlong slash", hex: "5b22c0af225d", offset: 2, line: 1, column: 3 },
  { name: "an encoded surrogate", hex: "5b226f6b222c22eda080225d", offset: 7, line: 1, column: 8 },
  { name: "a sequence cut off at the end", hex: "5b226162e282", offset: 4, line: 1, column: 5 },
  { name: "a code point above U+10FFFF", hex: "5b22f4908080225d", offset: 2, line: 1, column: 3 },
  { name: "a lone continuation byte", hex: "5b2280225d", offset: 2, line: 1, column: 3 },
  {
    name: "a bad byte on line 3",
    hex: "7b0a20202278223a20226f6b20e282ac222c0a20202279223a2022ff220a7d",
    offset: 27,
    line: 3,
    column: 9,
  },
];

describe("strict UTF-8 decoding of bundle files", () => {
  for (const c of PYTHON_REFERENCE) {
    it(`finds ${c.name} where Python's decoder does`, () => {
      expect(firstInvalidUtf8(bytes(c.hex))).toBe(c.offset);
      const decoded = decodeUtf8(bytes(c.hex));
      expect("failure" in decoded && decoded.failure).toMatchObject({
        offset: c.offset,
        line: c.line,
        column: c.column,
      });
    });
  }

  it("decodes well-formed text, four-byte characters included, and drops a byte-order mark", () => {
    expect(firstInvalidUtf8(bytes("5b22f09f9880222c22e282ac225d"))).toBe(-1);
    expect(decodeUtf8(bytes("efbbbf5b22f09f9880225d"))).toEqual({ text: '["\u{1F600}"]' });
  });
});

describe("the shape check before any recursive reading", () => {
  it("accepts depth 64 and reports depth 65 once, at its path, for a value 100,000 deep", () => {
    const nest = (n: number) => JSON.parse("[".repeat(n) + "]".repeat(n)) as unknown;
    expect(checkJsonShape(nest(64))).toEqual([]);
    expect(checkJsonShape(nest(65))).toEqual([
      {
        path: Array(64).fill(0),
        message: "nested deeper than 64 levels of arrays and objects (a bundle may nest at most 64)",
      },
    ]);
    expect(checkJsonShape(nest(100_000))).toHaveLength(1);
  });

  it("reports lone surrogates in strings and keys by path, and accepts a proper pair", () => {
    const value = JSON.parse('{"ok":"\\ud83d\\ude00","list":["x","\\udc00"],"\\ud800key":1}') as unknown;
    // A key is reported when its object is read, before the values inside.
    expect(checkJsonShape(value)).toEqual([
      {
        path: ["\ud800key"],
        message: "a key holds the lone UTF-16 surrogate \\ud800, which is not a character (UTF-8 cannot store it)",
      },
      {
        path: ["list", 1],
        message: "a string holds the lone UTF-16 surrogate \\udc00, which is not a character (UTF-8 cannot store it)",
      },
    ]);
  });
});
