/**
 * The template check: on batches exported from the demo database, every `${variable}` of
 * template.html is a column of input.csv and vice versa; the template and every filled HIT are
 * valid HTML; hostile text in a scenario, an utterance or the guidelines comes out escaped; and
 * the answer buttons in a filled HIT read back through the results import's parsers.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HtmlValidate } from "html-validate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { abPayloadFromAnswers } from "../../../app/task-types/ab-reactiveness/answer-fields.ts";
import { consensusPayloadFromAnswers } from "../../../app/task-types/consensus-snippet/answer-fields.ts";
import { ITEM_ID_FIELD, parseTaskAnswers } from "../../../app/domain/crowd/answer-fields.ts";
import { escapeHtml, markdownToHtml } from "../../../app/domain/crowd/hit-render.ts";
import {
  fillTemplate,
  GUIDELINES_MARKER,
  insertGuidelines,
  templateVariables,
  TemplateFillError,
} from "../../../app/domain/crowd/mturk-template.ts";
import { csvObjects, parseCsv } from "../../../app/domain/csv.ts";
import { checkConsensusLabel } from "../../../app/task-types/consensus-snippet/label.ts";
import { seedDemoStudies } from "../../../demo/studies.ts";
import { createAbStudy } from "../../../app/server/annotation/studies.server.ts";
import { playedScenarioOfRun, snippetContext } from "../../../app/server/annotation/task-view.server.ts";
import { exportBatch, type ExportSummary } from "../../../app/crowd-channels/mturk/export.server.ts";
import { seedDemo } from "../../../harness/annotation.ts";
import { tempDb, tempDir } from "../../../harness/temp-db.ts";

const HOSTILE = `<script>alert(1)</script> "quoted" & 'single' \${item_id} </ol>`;

const validator = new HtmlValidate({
  extends: ["html-validate:recommended"],
  // crowd-html-elements are custom elements; MTurk templates are fragments, not documents.
  elements: [
    "html5",
    {
      "crowd-form": { flow: true },
      "crowd-instructions": { flow: true },
      "short-summary": { flow: true },
      "detailed-instructions": { flow: true },
      "crowd-radio-group": { flow: true },
      "crowd-radio-button": { flow: true, phrasing: true },
    },
  ],
});

async function htmlErrors(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((r) =>
    r.messages.filter((m) => m.severity === 2).map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`),
  );
}

interface Batch {
  summary: ExportSummary;
  template: string;
  header: string[];
  rows: Record<string, string>[];
}

function readBatch(summary: ExportSummary): Batch {
  const template = readFileSync(summary.files.template, "utf8");
  const parsed = parseCsv(readFileSync(summary.files.inputCsv, "utf8"));
  return { summary, template, header: parsed.header, rows: csvObjects(parsed).map((r) => r.values) };
}

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#36;/g, "$")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * A worker's answers as crowd-form reports them: every radio button under its name with
 * {on: true|false}, one button chosen per crowd-radio-group (by `pick`), and the hidden fields.
 */
function simulateWorker(filled: string, pick: (names: string[], group: number) => number): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const hidden of filled.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    answers[decode(hidden[1])] = decode(hidden[2]);
  [...filled.matchAll(/<crowd-radio-group>([\s\S]*?)<\/crowd-radio-group>/g)].forEach((group, g) => {
    const names = [...group[1].matchAll(/<crowd-radio-button name="([^"]+)"/g)].map((m) => decode(m[1]));
    const chosen = pick(names, g);
    names.forEach((name, i) => (answers[name] = { on: i === chosen }));
  });
  return answers;
}

describe("MTurk templates on exported batches", async () => {
  const t = await tempDb();
  const out = tempDir("socrates-mturk-templates-");
  let consensus: Batch;
  let ab: Batch;
  let hostileItemId = 0;

  beforeAll(async () => {
    await seedDemo(t.db);
    await seedDemoStudies(t.db);
    const sql = t.db.$client;
    const crowdConsensus = (
      sql.prepare(`SELECT id FROM studies WHERE pool = 'crowd' AND type = 'consensus-snippet'`).get() as { id: number }
    ).id;

    // Hostile text in the scenario title, in an utterance of an exported snippet and in the guidelines.
    const target = sql
      .prepare(
        `SELECT i.id, s.run_id AS runId, s.start_turn AS startTurn, r.scenario_id AS scenarioId FROM study_items i
         JOIN snippets s ON s.id = i.snippet_id JOIN runs r ON r.id = s.run_id
         WHERE i.study_id = ? AND (SELECT count(*) FROM labels l WHERE l.study_item_id = i.id) = 0 ORDER BY i.position LIMIT 1`,
      )
      .get(crowdConsensus) as { id: number; runId: string; startTurn: number; scenarioId: string };
    hostileItemId = target.id;
    sql
      .prepare(`UPDATE turns SET utterance = ? WHERE run_id = ? AND turn_id = ?`)
      .run(`Fine.\n${HOSTILE}`, target.runId, target.startTurn);
    sql.prepare(`UPDATE scenarios SET title = ? WHERE id = ?`).run(`Title ${HOSTILE}`, target.scenarioId);
    sql
      .prepare(`UPDATE studies SET guidelines = ? WHERE id = ?`)
      .run(`# Read this\n\nNever type ${HOSTILE} here, and see [the site](javascript:alert(2)).`, crowdConsensus);
    consensus = readBatch(await exportBatch(t.db, crowdConsensus, { outDir: join(out.dir, "consensus") }));

    // A fresh A/B study (the demo's is fully labelled), with gold pairs, a hostile utterance and no guidelines of its
    // own.
    const abStudy = await createAbStudy(t.db, {
      name: "A/B for the template check",
      pool: "crowd",
      config: { seed: 3, goldRate: 0.5 },
    });
    const pair = sql
      .prepare(`SELECT run_a_id AS runA, target_party AS party FROM ab_pairs ORDER BY id LIMIT 1`)
      .get() as { runA: string; party: string };
    sql
      .prepare(
        `UPDATE turns SET utterance = ? WHERE run_id = ? AND turn_id = (SELECT min(turn_id) FROM turns WHERE run_id = ? AND speaker = ?)`,
      )
      .run(HOSTILE, pair.runA, pair.runA, pair.party);
    ab = readBatch(await exportBatch(t.db, abStudy, { outDir: join(out.dir, "ab") }));
  });
  afterAll(async () => {
    await t.cleanup();
    out.cleanup();
  });

  const batches = () =>
    [
      ["consensus-snippet", consensus],
      ["ab-reactiveness", ab],
    ] as const;

  it("has exactly the template's variables as the CSV header, for both study types", () => {
    for (const [kind, batch] of batches()) {
      expect(batch.rows.length, kind).toBeGreaterThan(0);
      expect(new Set(batch.header), kind).toEqual(new Set(templateVariables(batch.template)));
      expect(batch.header.length, kind).toBe(new Set(batch.header).size);
      expect(batch.header, kind).toContain("item_id");
    }
    expect(templateVariables(consensus.template)).toEqual(
      expect.arrayContaining(["questions_html", "snippet_html", "previous_html", "topics_html", "background_html"]),
    );
    expect(templateVariables(ab.template)).toEqual(
      expect.arrayContaining(["target_party", "conversation_a_html", "conversation_b_html"]),
    );
  });

  it("writes the study's guidelines into the template, escaped, in place of the marker", () => {
    expect(consensus.template).not.toContain(GUIDELINES_MARKER);
    expect(consensus.template).toContain("<h2>Read this</h2>");
    expect(consensus.template).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(consensus.template).not.toMatch(/<script>alert/);
    expect(consensus.template).not.toContain("javascript:");
    // The A/B study has no guidelines of its own: the shared Markdown file is used, as in the web task.
    const shared = markdownToHtml(readFileSync("app/task-types/ab-reactiveness/guidelines.md", "utf8"));
    expect(ab.template).toContain(shared);
    for (const [kind, source] of [
      ["consensus-snippet", "app/task-types/consensus-snippet/mturk.html"],
      ["ab-reactiveness", "app/task-types/ab-reactiveness/mturk.html"],
    ]) {
      expect(readFileSync(source, "utf8").split(GUIDELINES_MARKER), kind).toHaveLength(2);
    }
  });

  it("is valid HTML as a template and as every filled HIT", async () => {
    // The validator is not a rubber stamp: a broken fragment fails.
    expect(await htmlErrors("<crowd-form><p>open <b>bold</i></crowd-form>")).not.toEqual([]);
    for (const [kind, batch] of batches()) {
      expect(await htmlErrors(batch.template), `${kind} template`).toEqual([]);
      for (const row of batch.rows)
        expect(await htmlErrors(fillTemplate(batch.template, row)), `${kind} item ${row.item_id}`).toEqual([]);
    }
  });

  it("escapes every value: <script>, quotes, ampersands and placeholders in the text come out as text", () => {
    const consensusRow = consensus.rows.find((r) => r.item_id === String(hostileItemId))!;
    expect(consensusRow, "the item with the hostile utterance is exported").toBeDefined();
    const abRow = ab.rows.find((r) => r.conversation_a_html.includes("alert(1)"))!;
    expect(abRow, "the pair with the hostile utterance is exported").toBeDefined();
    const escaped = escapeHtml(HOSTILE);
    expect(escaped).toBe(
      "&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &amp; &#39;single&#39; &#36;{item_id} &lt;/ol&gt;",
    );
    for (const [row, template] of [
      [consensusRow, consensus.template],
      [abRow, ab.template],
    ] as const) {
      const filled = fillTemplate(template, row);
      expect(filled).not.toMatch(/<script>alert/);
      expect(filled).toContain("&lt;script&gt;");
      expect(filled).toContain(escaped);
      // The only scripts are the crowd elements loader and the template's own answer check.
      expect([...filled.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
        '<script src="https://assets.crowd.aws/crowd-html-elements.js">',
        "<script>",
      ]);
    }
    expect(consensusRow.scenario_title).toBe(`Title ${escaped}`);
    // A value never adds a variable MTurk would try to fill.
    for (const [, batch] of batches())
      for (const row of batch.rows)
        for (const value of Object.values(row)) expect(templateVariables(value)).toEqual([]);
  });

  it("names the answer buttons so the results import reads a worker's choices back", async () => {
    const sql = t.db.$client;
    for (const row of consensus.rows) {
      const filled = fillTemplate(consensus.template, row);
      // Each worker picks a different button per question; the parsed label must say exactly that.
      const picks = new Map<number, string>();
      const answers = simulateWorker(filled, (names, g) => {
        const i = (g * 7 + Number(row.item_id)) % names.length;
        picks.set(g, names[i]);
        return i;
      });
      const parsedCell = parseTaskAnswers(JSON.stringify([answers]));
      expect(parsedCell.ok).toBe(true);
      const snippetId = (
        sql.prepare(`SELECT snippet_id AS s FROM study_items WHERE id = ?`).get(Number(row.item_id)) as { s: number }
      ).s;
      const { body } = await playedScenarioOfRun(t.db, (await snippetContext(t.db, snippetId)).runId);
      const result = consensusPayloadFromAnswers(answers, body);
      if (!result.ok) throw new Error(JSON.stringify(result.problems));
      expect(result.itemId).toBe(row.item_id);
      expect(result.payload.kind).toBe("consensus-snippet");
      if (result.payload.kind !== "consensus-snippet") continue;
      expect(checkConsensusLabel(result.payload, body, null)).toEqual([]);
      // One group per topic for the score and one per topic × party for positions.
      expect(picks.size).toBe(body.topics.length * (body.parties.length + 1));
      const chosen = [...picks.values()];
      for (const topic of body.topics) {
        expect(chosen).toContain(`score|${topic.id}|${result.payload.topics[topic.id].score}`);
        for (const party of body.parties)
          expect(chosen).toContain(
            `position|${topic.id}|${party.id}|${result.payload.topics[topic.id].positions[party.id]}`,
          );
      }
    }
    for (const row of ab.rows) {
      const filled = fillTemplate(ab.template, row);
      for (const side of ["A", "B"] as const) {
        const answers = simulateWorker(filled, (names) => names.indexOf(`choice|${side}`));
        expect(answers[ITEM_ID_FIELD]).toBe(row.item_id);
        const result = abPayloadFromAnswers(answers);
        expect(result).toEqual({ ok: true, payload: { kind: "ab-reactiveness", choice: side }, itemId: row.item_id });
      }
    }
  });

  it("includes gold items, indistinguishable from the others", () => {
    const sql = t.db.$client;
    const items = sql
      .prepare(`SELECT id, is_gold AS isGold FROM study_items WHERE study_id = ? ORDER BY id`)
      .all(ab.summary.studyId) as { id: number; isGold: number }[];
    expect(items.some((i) => i.isGold === 1)).toBe(true);
    expect(ab.rows.map((r) => Number(r.item_id)).sort((a, b) => a - b)).toEqual(items.map((i) => i.id));
    expect(ab.summary.goldRows).toBe(items.filter((i) => i.isGold === 1).length);
    for (const row of ab.rows) expect(JSON.stringify(row).toLowerCase()).not.toMatch(/gold|level|reactiv|backbone/);
  });
});

describe("template filling", () => {
  it("substitutes in one pass and names every missing variable", () => {
    expect(templateVariables("<p>${a}</p><i>${b}</i>${a}")).toEqual(["a", "b"]);
    expect(fillTemplate("<p>${a}</p>", { a: "${b}", b: "x" })).toBe("<p>${b}</p>");
    expect(() => fillTemplate("<p>${a} ${b} ${c}</p>", { b: "" })).toThrowError(TemplateFillError);
    expect(() => fillTemplate("<p>${a} ${b} ${c}</p>", { b: "" })).toThrowError(
      "no value for template variables ${a}, ${c}",
    );
  });

  it("needs the guidelines marker exactly once", () => {
    expect(insertGuidelines(`<div>${GUIDELINES_MARKER}</div>`, "<p>$&</p>")).toBe("<div><p>$&</p></div>");
    expect(() => insertGuidelines("<div></div>", "x")).toThrowError(/exactly once \(found 0\)/);
    expect(() => insertGuidelines(GUIDELINES_MARKER + GUIDELINES_MARKER, "x")).toThrowError(/found 2/);
  });
});
