import { describe, expect, it } from "vitest";
import {
  filterMyLabels,
  myLabelsQuery,
  parseMyLabelsFilter,
  scenarioChoices,
} from "../../../app/domain/label-review/my-labels.ts";

const rows = [
  { id: 3, scenario: "Rent dispute", revisions: 2 },
  { id: 2, scenario: "Water rights", revisions: 1 },
  { id: 1, scenario: "Rent dispute", revisions: 1 },
];

describe("My labels filters", () => {
  it("reads the scenario and revised filters from the query; unknown values mean any", () => {
    expect(parseMyLabelsFilter(new URLSearchParams("scenario=Rent+dispute&revised=yes"))).toEqual({
      scenario: "Rent dispute",
      revised: "yes",
    });
    expect(parseMyLabelsFilter(new URLSearchParams("scenario=&revised=maybe"))).toEqual({
      scenario: null,
      revised: null,
    });
  });

  it("keeps the rows that match every filter, in the order given", () => {
    expect(filterMyLabels(rows, { scenario: null, revised: null }).map((r) => r.id)).toEqual([3, 2, 1]);
    expect(filterMyLabels(rows, { scenario: null, revised: "yes" }).map((r) => r.id)).toEqual([3]);
    expect(filterMyLabels(rows, { scenario: "Rent dispute", revised: "no" }).map((r) => r.id)).toEqual([1]);
  });

  it("writes a filter back as a query string that parses to the same filter", () => {
    const filter = { scenario: "Rent & water", revised: "no" as const };
    expect(parseMyLabelsFilter(new URLSearchParams(myLabelsQuery(filter)))).toEqual(filter);
    expect(myLabelsQuery({ scenario: null, revised: null })).toBe("");
  });

  it("offers each scenario once, alphabetically", () => {
    expect(scenarioChoices(rows)).toEqual(["Rent dispute", "Water rights"]);
  });
});
