import { describe, expect, it } from "vitest";
import { goldFor, type GoldItemSource } from "../../../app/domain/validation/gold-items.ts";

const item = (over: Partial<GoldItemSource>): GoldItemSource => ({
  itemId: 1,
  kind: "consensus-snippet",
  isGold: false,
  gold: null,
  levelA: null,
  levelB: null,
  ...over,
});

describe("goldFor", () => {
  it("keeps only gold items and splits them by kind", () => {
    const gold = goldFor([
      item({ itemId: 1, isGold: true, gold: { topics: { t1: 4, t2: 2 } } }),
      item({ itemId: 2 }),
      item({ itemId: 3, kind: "ab-reactiveness", isGold: true, levelA: 1, levelB: 0 }),
      item({ itemId: 4, kind: "ab-reactiveness", levelA: 0, levelB: 1 }),
    ]);
    expect(gold).toEqual({
      "consensus-snippet": [{ itemId: 1, reference: { t1: 4, t2: 2 } }],
      "ab-reactiveness": [{ itemId: 3, levelA: 1, levelB: 0 }],
    });
  });

  it("names the item and path of a malformed consensus gold", () => {
    expect(() => goldFor([item({ itemId: 7, isGold: true, gold: { topics: { t1: 9 } } })])).toThrow(
      /item 7: gold\.topics\.t1/,
    );
  });

  it("returns empty lists when there is no gold", () => {
    expect(goldFor([item({})])).toEqual({ "consensus-snippet": [], "ab-reactiveness": [] });
  });
});
