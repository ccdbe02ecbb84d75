/**
 * Issue 29, finding 9: bundles the database would refuse (a unique key held under another id),
 * nested too deep, or not UTF-8 are named problems with file and JSON path, before anything is
 * written — on a real SQLite file, through the same import the CLI and the web upload use.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BundleImportError, importBundleFiles, type BundleFile } from "../../app/server/bundle-store.server.ts";
import { abReactivenessServer } from "../../app/task-types/ab-reactiveness/handlers.server.ts";
import { ServiceError } from "../../app/server/http/errors.server.ts";
import { fixtureAbBundle, fixtureBundle } from "../fixtures/bundle-fixture.ts";
import { tableCounts, tempDb } from "../../harness/temp-db.ts";

const asFile = (value: unknown, file = "bundle.json"): BundleFile => ({ file, text: JSON.stringify(value) });
const only = (records: Record<string, unknown>) => ({ format: "socrates-bundle", version: 1, ...records });

/** The problems an import is refused with, as "file: path: message" lines. */
async function refusal(run: () => unknown): Promise<string[]> {
  try {
    await run();
  } catch (err) {
    if (!(err instanceof BundleImportError)) throw err;
    return err.problems.map((p) => `${p.file}: ${p.path}: ${p.message}`);
  }
  throw new Error("the import was not refused");
}

describe("bundle import: the database's constraints as named problems", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  beforeEach(async () => {
    t = await tempDb();
    await importBundleFiles(t.db, [asFile(fixtureBundle(), "seed.json")]);
  });
  afterEach(() => t.cleanup());

  it("refuses a stored condition's scenario, axis and variant under a new id, writing nothing", async () => {
    const before = await tableCounts(t.db);
    const again = { ...fixtureBundle().conditions[0], id: "fx-1:general-2" };
    expect(await refusal(() => importBundleFiles(t.db, [asFile(only({ conditions: [again] }), "again.json")]))).toEqual(
      [
        'again.json: $.conditions[0].variant: the stored condition "fx-1:general" already has scenario "fx-1", axis "general", variant "default"; use its id "fx-1:general" instead of "fx-1:general-2", or another variant',
      ],
    );
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("refuses two conditions with one key within a bundle and across files", async () => {
    const fresh = fixtureBundle().scenarios[0];
    const scenario = { ...fresh, id: "fx-2" };
    const a = { id: "fx-2:general", scenario_id: "fx-2", axis: "general", variant: "default" };
    const b = { ...a, id: "fx-2:general-b" };
    expect(
      await refusal(() =>
        importBundleFiles(t.db, [asFile(only({ scenarios: [scenario], conditions: [a, b] }), "two.json")]),
      ),
    ).toEqual([
      'two.json: $.conditions[1].variant: condition "fx-2:general" in this bundle already has scenario "fx-2", axis "general", variant "default"; one condition per scenario, axis and variant',
    ]);
    const problems = await refusal(() =>
      importBundleFiles(t.db, [
        asFile(only({ scenarios: [scenario], conditions: [a] }), "one.json"),
        asFile(only({ conditions: [b] }), "other.json"),
      ]),
    );
    expect(problems).toEqual([
      'other.json: $.conditions[0].variant: condition "fx-2:general" in one.json already has scenario "fx-2", axis "general", variant "default"; one condition per scenario, axis and variant',
    ]);
  });

  it("refuses a second matched pair for a stored pair's mediated run", async () => {
    const pair = { ...fixtureBundle().matched_pairs[0], id: "fx-1:pair-2" };
    expect(
      await refusal(() => importBundleFiles(t.db, [asFile(only({ matched_pairs: [pair] }), "pairs.json")])),
    ).toEqual([
      `pairs.json: $.matched_pairs[0].mediated_run_id: the stored matched pair "${fixtureBundle().matched_pairs[0].id}" already has mediated run "fx-1:med"; use its id "${fixtureBundle().matched_pairs[0].id}" instead of "fx-1:pair-2", or another mediated run id`,
    ]);
  });

  it("leaves a re-import of the same records alone (a key held by the record itself is no conflict)", async () => {
    const again = await importBundleFiles(t.db, [asFile(fixtureBundle(), "seed-again.json")]);
    expect(again.unchanged).toEqual({
      scenarios: 1,
      conditions: 1,
      runs: 2,
      matched_pairs: 1,
      ab_pairs: 0,
      evaluations: 2,
    });
  });

  it("refuses a run config nested 10,000 deep at the first level past the bound", async () => {
    const text = JSON.stringify(fixtureBundle()).replace(
      '"config":{',
      `"config":{"deep":${"[".repeat(10_000)}${"]".repeat(10_000)},`,
    );
    const problems = await refusal(() => importBundleFiles(t.db, [{ file: "deep.json", text }]));
    expect(problems).toEqual([
      `deep.json: $.runs[0].config.deep${"[0]".repeat(60)}: nested deeper than 64 levels of arrays and objects (a bundle may nest at most 64)`,
    ]);
  });

  it("refuses bytes that are not UTF-8 by offset and line, and a lone surrogate by JSON path", async () => {
    const bytes = new TextEncoder().encode(
      JSON.stringify(fixtureBundle(), null, 1).replace("Fixture sale", "Fixture s\u00e0le"),
    );
    // Replace the two UTF-8 bytes of "à" by its one Latin-1 byte (0xe0), as a Latin-1 editor would save it.
    const at = bytes.indexOf(0xc3);
    const latin1 = new Uint8Array([...bytes.subarray(0, at), 0xe0, ...bytes.subarray(at + 2)]);
    const line = new TextDecoder().decode(bytes.subarray(0, at)).split("\n").length;
    const column = at - bytes.lastIndexOf(0x0a, at);
    expect(await refusal(() => importBundleFiles(t.db, [{ file: "latin1.json", bytes: latin1 }]))).toEqual([
      `latin1.json: $: invalid UTF-8 at byte ${at} (line ${line}, byte ${column} of the line: e0 6c 65 22); save the file as UTF-8`,
    ]);
    const lone = JSON.stringify(fixtureBundle()).replace("Fixture sale", "Fixture \\ud800sale");
    expect(await refusal(() => importBundleFiles(t.db, [{ file: "lone.json", text: lone }]))).toEqual([
      "lone.json: $.scenarios[0].title: a string holds the lone UTF-16 surrogate \\ud800, which is not a character (UTF-8 cannot store it)",
    ]);
  });

  it("the web A/B upload answers 400 naming the problem where it answered 500", async () => {
    await importBundleFiles(t.db, [asFile(fixtureAbBundle(), "ab.json")]);
    const stored = fixtureAbBundle();
    const clash = {
      ...stored,
      conditions: [{ ...stored.conditions[1], id: "copied-condition" }],
      runs: [],
      matched_pairs: [],
      evaluations: [],
      scenarios: [],
      ab_pairs: [],
    };
    const form = new FormData();
    form.set("bundle", new File([JSON.stringify(clash)], "upload.json", { type: "application/json" }));
    const before = await tableCounts(t.db);
    const refused = await abReactivenessServer.createFromForm(t.db, form, { name: "Upload", pool: "crowd" }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(ServiceError);
    const e = refused as ServiceError;
    expect(e.status).toBe(400);
    expect(e.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      `upload.json: $.conditions[0].variant: the stored condition "${stored.conditions[1].id}" already has scenario "fx-1", axis "fidelity", variant "${stored.conditions[1].variant}"; use its id "${stored.conditions[1].id}" instead of "copied-condition", or another variant`,
    ]);
    expect(await tableCounts(t.db)).toEqual(before);

    const latin1 = new Uint8Array([
      ...new TextEncoder().encode('{"format":"socrates-bundle","version":1,"description":"caf'),
      0xe9,
      0x22,
      0x7d,
    ]);
    const bad = new FormData();
    bad.set("bundle", new File([latin1], "latin1.json"));
    const undecodable = await abReactivenessServer
      .createFromForm(t.db, bad, { name: "Upload", pool: "crowd" })
      .catch((err: unknown) => err);
    expect((undecodable as ServiceError).status).toBe(400);
    expect((undecodable as ServiceError).problems[0]).toEqual({
      path: "latin1.json: $",
      message: "invalid UTF-8 at byte 58 (line 1, byte 59 of the line: e9 22 7d); save the file as UTF-8",
    });
  });
});
