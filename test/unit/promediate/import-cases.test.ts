/**
 * ProMediate's six real cases imported into a real SQLite database: topics, options, parties with
 * stances and derived weights, provenance, the spelling warnings, and a repeat that changes nothing.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findScenario, type ScenarioRow } from "../../../app/server/models/scenario.server.ts";
import { importPromediateCases } from "../../../app/server/promediate/import-cases.server.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";
import { tableDigests } from "../../helpers/db-digest.ts";
import { CASE_NAMES, CASES_DIR } from "./cases-dir.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function importedDb() {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  const result = await importPromediateCases(t.db, CASES_DIR);
  return { ...t, result };
}

async function scenario(db: Awaited<ReturnType<typeof tempDb>>["db"], name: string): Promise<ScenarioRow> {
  const found = await findScenario(db, `promediate-${name}`);
  if (!found) throw new Error(`promediate-${name} not stored`);
  return found;
}

const caseJson = (name: string) => JSON.parse(readFileSync(join(CASES_DIR, `${name}.json`), "utf8"));
const topicsJson = JSON.parse(readFileSync(join(CASES_DIR, "topics.json"), "utf8"));

describe("promediate import of the six real cases", () => {
  it("stores one scenario and one general condition per case, with the case's topics in order", async () => {
    const { db, result } = await importedDb();
    expect(result.stored.inserted).toMatchObject({ scenarios: 6, conditions: 6 });
    expect(result.cases.map((c) => c.scenarioId)).toEqual(CASE_NAMES.map((n) => `promediate-${n}`));
    for (const name of CASE_NAMES) {
      const s = await scenario(db, name);
      const listed: string[] = caseJson(name).topics ?? topicsJson[name];
      expect(s.topics.map((t) => t.name)).toEqual(listed);
      expect(s.topics.map((t) => t.id)).toEqual(listed.map((_, i) => `T${i + 1}`));
    }
    const conditions = db.$client.prepare("SELECT id, axis, variant FROM conditions ORDER BY id").all();
    expect(conditions).toEqual(
      CASE_NAMES.map((n) => ({ id: `promediate-${n}:general`, axis: "general", variant: "default" })),
    );
  });

  it("letters every label style's options A, B, C… with the case's own wording", async () => {
    const { db } = await importedDb();
    const counts = Object.fromEntries(
      await Promise.all(CASE_NAMES.map(async (n) => [n, (await scenario(db, n)).topics.map((t) => t.options.length)])),
    );
    // Counted by hand in the case files: (a) in flagship, williams and hmo, (A): in francis, (1). in ias,
    // Option 1A in river.
    expect(counts).toEqual({
      flagship: [5, 3, 4, 4],
      francis: [4, 3, 4, 4],
      hmo: [2, 3, 5, 3, 2],
      ias: [3, 4, 3, 3],
      river: [4, 4, 3],
      williams: [4, 3, 3],
    });
    const hmo = await scenario(db, "hmo");
    expect(hmo.topics[3].options).toEqual([
      { label: "A", description: "Open" },
      { label: "B", description: "Dual" },
      { label: "C", description: "Exclusive" },
    ]);
    expect(hmo.topics[4].options.map((o) => o.description)).toEqual(["Two-year contract", "Five-year contract"]);
    const river = await scenario(db, "river");
    expect(river.topics[2].options.map((o) => `${o.label}: ${o.description}`)).toEqual([
      "A: All states should contribute equally.",
      "B: The lowest riparian should provide environmental flows.",
      "C: Ignore the environment for now.",
    ]);
    const ias = await scenario(db, "ias");
    expect(ias.topics[1].options[3]).toEqual({
      label: "D",
      description: "IAS could convene the division representatives to develop entirely new computer architecture.",
    });
    expect(ias.topics[1].description).toContain("Currently, each division has its own computer system.");
    const francis = await scenario(db, "francis");
    expect(francis.topics[0].options[3].description).toBe(
      "Do not expand the MMM; continue it just as a demonstration.",
    );
    expect((await scenario(db, "williams")).topics[0].options[0].description).toBe("Status quo (no consultations)");
  });

  it("makes a party of every brief but the mediator's, with its role and its own words per topic", async () => {
    const { db } = await importedDb();
    const parties = Object.fromEntries(
      await Promise.all(CASE_NAMES.map(async (n) => [n, (await scenario(db, n)).parties.map((p) => p.id)])),
    );
    expect(parties).toEqual({
      flagship: ["ATCHISON", "DELLING", "GORDON", "LANGTON", "ROSS", "STILES"],
      francis: ["BENNETT", "MACNAMARA", "MARSHALL", "MASON", "PARKER"],
      hmo: ["ALEX", "JAMIE", "LEE"],
      ias: ["CHUNG", "COLES", "MCKENZIE", "ROSSI"],
      river: ["BASIN", "DARBIN", "EASTLAND", "MINISTRY", "NORTHLAND", "SOUTHLAND"],
      williams: ["BRADLEY", "PATRICIA", "ROBERT", "STEWARD", "SUSAN"],
    });
    const macnamara = (await scenario(db, "francis")).parties[1];
    expect(macnamara.name).toBe("Macnamara");
    expect(macnamara.role).toBe("Senior Vice President for Nursing, St. Francis Hospital");
    expect(macnamara.preferences.T1).toMatch(/^- First Choice: Your first choice is Option B/);
    const darbin = (await scenario(db, "river")).parties[1];
    expect(darbin.preferences.T2).toMatch(/^- First choice: \(2A\) Northland’s water to go to the environment/);
    expect(darbin.preferences.T3).toMatch(/^- first choice: \(3A\) Equal contribution from all states/);
    const alex = (await scenario(db, "hmo")).parties[0];
    expect(alex.preferences.T4).toContain("First choice: c Second choice: b Unacceptable: a");
    const susan = (await scenario(db, "williams")).parties[4];
    expect(susan.role).toBe("Chief of Cardiology");
    expect(susan.preferences.T1).toMatch(/^- First Choice Retain the status quo\./);
    for (const name of CASE_NAMES) {
      for (const p of (await scenario(db, name)).parties) {
        expect(Object.keys(p.preferences)).toEqual((await scenario(db, name)).topics.map((t) => t.id));
        expect(p.relation.length).toBeGreaterThan(0);
      }
    }
  });

  it("derives weights from a stated issue ranking, else from emphasis, summing to 10 and never all equal", async () => {
    const { db, result } = await importedDb();
    const weights = async (name: string, party: number) => (await scenario(db, name)).parties[party].weights;
    // Bennett: "Issue IV is the most important … Issue I is the next … Issue III is somewhat … Issue II is least".
    expect(await weights("francis", 0)).toEqual({ T4: 4, T1: 3, T3: 2, T2: 1 });
    // Macnamara: I most, III second, IV somewhat, II least.
    expect(await weights("francis", 1)).toEqual({ T1: 4, T3: 3, T4: 2, T2: 1 });
    // Parker: II most, I a close second, III somewhat, IV not very.
    expect(await weights("francis", 4)).toEqual({ T2: 4, T1: 3, T3: 2, T4: 1 });
    expect(result.cases.find((c) => c.scenarioId === "promediate-francis")?.weightRules).toEqual({
      BENNETT: "stated-ranking",
      MACNAMARA: "stated-ranking",
      MARSHALL: "stated-ranking",
      MASON: "stated-ranking",
      PARKER: "stated-ranking",
    });
    // Chung calls the architecture "your top priority": ranked first.
    expect((await weights("ias", 0)).T2).toBe(4);
    for (const name of CASE_NAMES) {
      for (const p of (await scenario(db, name)).parties) {
        const w = Object.values(p.weights);
        expect(w.reduce((a, b) => a + b, 0)).toBe(10);
        expect(new Set(w).size).toBeGreaterThan(1);
        // Rank-sum points scaled to 10: one of each value of the table for this many topics.
        const table = { 3: [2, 3, 5], 4: [1, 2, 3, 4], 5: [1, 1, 2, 3, 3] }[w.length];
        expect([...w].sort((a, b) => a - b)).toEqual(table);
      }
    }
  });

  it("records the source file, its sha256 and the derived fields; derives domain by the cue rule", async () => {
    const { db } = await importedDb();
    for (const name of CASE_NAMES) {
      const s = await scenario(db, name);
      const sha256 = createHash("sha256")
        .update(readFileSync(join(CASES_DIR, `${name}.json`)))
        .digest("hex");
      expect(s.source).toMatchObject({ kind: "promediate", file: `${name}.json`, sha256 });
      expect(s.source.kind === "promediate" && s.source.derived).toEqual([
        "title",
        "domain",
        "parties[].relation",
        "parties[].weights",
      ]);
      expect(s.background).not.toMatch(/\{issues\}|\{options\}/);
    }
    const domains = Object.fromEntries(
      await Promise.all(CASE_NAMES.map(async (n) => [n, (await scenario(db, n)).domain])),
    );
    expect(domains).toEqual({
      flagship: "business-to-business",
      francis: "healthcare",
      hmo: "healthcare",
      ias: "intra-organizational",
      river: "environmental",
      williams: "healthcare",
    });
  });

  it("warns about the config/names spellings by file and JSON path, and imports those parties", async () => {
    const { result } = await importedDb();
    const warnings = result.cases.flatMap((c) => c.warnings.map((w) => `${w.file}: ${w.path}: ${w.message}`));
    expect(warnings).toEqual([
      `${join(CASES_DIR, "francis.json")}: $.config.MacNamara: spelled "Macnamara" in $.names; taken as the same party, named "Macnamara"`,
      `${join(CASES_DIR, "ias.json")}: $.config.McKenzie: spelled "Mckenzie" in $.names; taken as the same party, named "Mckenzie"`,
    ]);
  });

  it("changes nothing on a second import (rows and content equal)", async () => {
    const { db } = await importedDb();
    const counts = await tableCounts(db);
    const digests = tableDigests(db);
    const again = await importPromediateCases(db, CASES_DIR);
    expect(again.stored.inserted).toMatchObject({ scenarios: 0, conditions: 0 });
    expect(again.stored.unchanged).toMatchObject({ scenarios: 6, conditions: 6 });
    expect(await tableCounts(db)).toEqual(counts);
    expect(tableDigests(db)).toEqual(digests);
  });
});
