// Sorting and filtering the admin and research tables: the pure query-string sort, and the runs
// list sorted and filtered in SQL on the demo database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchesText, parseSort, sortRows, sortSearch } from "../../../app/domain/table-sort.ts";
import { listRuns } from "../../../app/server/catalog.server.ts";
import { seedDemo } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";

const KEYS = ["name", "items"] as const;

describe("table sort (query string)", () => {
  it("reads ?sort and ?dir, falling back for a missing or unknown key", () => {
    const fallback = { key: "name", dir: "asc" } as const;
    expect(parseSort(new URLSearchParams("sort=items&dir=desc"), KEYS, fallback)).toEqual({
      key: "items",
      dir: "desc",
    });
    expect(parseSort(new URLSearchParams("sort=items&dir=sideways"), KEYS, fallback)).toEqual({
      key: "items",
      dir: "asc",
    });
    expect(parseSort(new URLSearchParams("sort=password"), KEYS, fallback)).toEqual(fallback);
    expect(parseSort(new URLSearchParams(""), KEYS, fallback)).toEqual(fallback);
  });

  it("links a header to its column ascending, reversing the current one, and keeps the filters", () => {
    const params = new URLSearchParams("q=demo&sort=name&dir=asc");
    expect(sortSearch(params, { key: "name", dir: "asc" }, "name")).toBe("?q=demo&sort=name&dir=desc");
    expect(sortSearch(params, { key: "name", dir: "desc" }, "name")).toBe("?q=demo&sort=name&dir=asc");
    expect(sortSearch(params, { key: "name", dir: "asc" }, "items")).toBe("?q=demo&sort=items&dir=asc");
  });

  it("sorts numbers as numbers and text naturally, keeps ties in order and empties last either way", () => {
    const rows = [
      { name: "study 10", items: 5 },
      { name: "study 9", items: 40 },
      { name: "", items: 5 },
      { name: "Study 1", items: 100 },
    ];
    const by = (key: (typeof KEYS)[number], dir: "asc" | "desc") =>
      sortRows(rows, { key, dir }, (r, k) => r[k]).map((r) => r.name);
    expect(by("name", "asc")).toEqual(["Study 1", "study 9", "study 10", ""]);
    expect(by("name", "desc")).toEqual(["study 10", "study 9", "Study 1", ""]);
    expect(by("items", "asc")).toEqual(["study 10", "", "study 9", "Study 1"]);
    expect(by("items", "desc")).toEqual(["Study 1", "study 9", "study 10", ""]);
  });

  it("matches every word of a filter, case-insensitively", () => {
    expect(matchesText("", "anything")).toBe(true);
    expect(matchesText("Pilot  crowd", "Crowd pilot, round 2")).toBe(true);
    expect(matchesText("pilot expert", "Crowd pilot")).toBe(false);
  });
});

describe("listRuns: sort and filter in SQL", async () => {
  const t = await tempDb();
  beforeAll(async () => await seedDemo(t.db));
  afterAll(() => t.cleanup());

  it("sorts by a column either way, the run id breaking ties", async () => {
    const byTurns = await listRuns(t.db, { sort: { key: "turns", dir: "desc" } });
    expect(byTurns.length).toBeGreaterThan(2);
    const turns = byTurns.map((r) => r.totalTurns);
    expect(turns).toEqual([...turns].sort((a, b) => b - a));
    const byId = (await listRuns(t.db, { sort: { key: "id", dir: "asc" } })).map((r) => r.id);
    expect(byId).toEqual([...byId].sort());
    const evaluated = await listRuns(t.db, { sort: { key: "evaluations", dir: "desc" } });
    expect(evaluated[0].evaluations).toBe(Math.max(...evaluated.map((r) => r.evaluations)));
  });

  it("filters by words, outcome and mediation; a word is text, never a LIKE pattern", async () => {
    const all = await listRuns(t.db);
    const mediated = await listRuns(t.db, { mediated: true });
    expect(mediated.length).toBeGreaterThan(0);
    expect(mediated.every((r) => r.mediated)).toBe(true);
    expect((await listRuns(t.db, { mediated: false })).length).toBe(all.length - mediated.length);
    const outcome = all[0].outcome;
    expect((await listRuns(t.db, { outcome })).map((r) => r.id)).toEqual(
      all.filter((r) => r.outcome === outcome).map((r) => r.id),
    );
    const title = all[0].scenarioTitle;
    const word = title.split(" ")[0].toUpperCase();
    expect((await listRuns(t.db, { text: word })).map((r) => r.id)).toEqual(
      all
        .filter((r) =>
          `${r.id} ${r.scenarioTitle} ${r.axis} ${r.variant} ${r.mediatorBackbone ?? ""} ${r.simulatorBackbone}`
            .toLowerCase()
            .includes(word.toLowerCase()),
        )
        .map((r) => r.id),
    );
    expect(await listRuns(t.db, { text: "%" })).toEqual([]);
  });
});
