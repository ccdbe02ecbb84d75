/**
 * Loader data handed to single fetch as a plain object (responses.server.ts): exactly what a json()
 * Response delivered, and for a cached object made once until the cache hands out another.
 */
import { json } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { asJsonData, jsonDataOnce } from "../../app/server/http/responses.server.ts";

const sample = () => ({
  alpha: Number.NaN,
  upper: Number.POSITIVE_INFINITY,
  missing: undefined,
  at: new Date("2026-11-29T10:00:00.000Z"),
  rows: [1, undefined, { nested: Number.NaN }],
  text: "an SVG <svg>…</svg> and \u2028",
});

describe("asJsonData", () => {
  it("is what a json() Response reads back as", async () => {
    const viaResponse = await json(sample()).json();
    expect(asJsonData(sample())).toEqual(viaResponse);
    expect(asJsonData(sample())).toStrictEqual({
      alpha: null,
      upper: null,
      at: "2026-11-29T10:00:00.000Z",
      rows: [1, null, { nested: null }],
      text: "an SVG <svg>…</svg> and \u2028",
    });
  });
});

describe("jsonDataOnce", () => {
  it("makes the JSON form once per key object, and again for a new key", () => {
    const made: object[] = [];
    const shown = jsonDataOnce((key: { value: number }) => {
      made.push(key);
      return { doubled: key.value * 2, ratio: key.value / 0 };
    });
    const first = { value: 2 };
    expect(shown(first)).toEqual({ doubled: 4, ratio: null });
    expect(shown(first)).toBe(shown(first));
    expect(made).toEqual([first]);
    const second = { value: 3 };
    expect(shown(second)).toEqual({ doubled: 6, ratio: null });
    expect(made).toEqual([first, second]);
  });
});
