/**
 * Snippet consensus on the server: a study samples N trajectories (seeded, stratified over
 * domain × mediator) and takes all their snippets in order, with gold snippets from a finished
 * expert study; its dashboard shows alpha per pool, alignment with the evaluator and the trend.
 */
import { z } from "zod";
import { parseStudyConfig, type StudyConfig } from "../../domain/study-config.ts";
import { CONSENSUS_SNIPPET, type ConsensusLabel } from "./label.ts";
import { taskType, taskTypeName } from "../registry.ts";
import { ofKind } from "../resume.ts";
import {
  mixGold,
  stratifiedSample,
  summarizeAgreement,
  type AlignmentTable,
  type ConsensusTrend,
} from "../../domain/validation/index.ts";
import { comparisonPanel } from "../../domain/validation/comparison-panel.ts";
import type { Db } from "../../server/db.server.ts";
import { activePopulation, storePopulation } from "../../server/annotation/active-draw.server.ts";
import { goldSnippets } from "./gold-source.server.ts";
import { topicJudgeBackbones } from "../../server/models/study-draw.server.ts";
import { badInput, type FieldProblem } from "../../server/http/errors.server.ts";
import { evaluatedTrajectories, evaluatedTrajectoryCount } from "../../server/models/run.server.ts";
import { snippetsOfRun } from "../../server/models/snippet.server.ts";
import { findStudy, listStudyRows, type ItemRow } from "../../server/models/study.server.ts";
import {
  blindScenario,
  playedScenarioOfRun,
  previousOwnLabel,
  snippetContext,
  turnsBetween,
  type SnippetContext,
} from "../../server/annotation/task-view.server.ts";
import type { ConsensusTaskView } from "./view.ts";
import { consensusDashboard, consensusCharts } from "./dashboard.server.ts";
import type { TaskTypeServer } from "../handler.server.ts";
import {
  baseStudySchema,
  formNumber,
  insertStudy,
  parseOrThrow,
  type CommonStudyInput,
  type NewItem,
} from "../../server/annotation/new-study.server.ts";
import { transact } from "../../server/db-transaction.server.ts";

/** The snippet and (for context) the one before it, its scenario blinded. */
export async function consensusTaskView(
  db: Db,
  item: ItemRow,
  contextGiven?: SnippetContext,
): Promise<ConsensusTaskView> {
  const context = contextGiven ?? (await snippetContext(db, item.snippetId as number));
  const { title, body } = await playedScenarioOfRun(db, context.runId);
  const names = new Map(body.parties.map((p) => [p.id, p.name]));
  return {
    kind: CONSENSUS_SNIPPET,
    scenario: blindScenario(title, body),
    previousSnippet: context.previous
      ? await turnsBetween(db, context.runId, context.previous.startTurn, context.previous.endTurn, names)
      : null,
    snippet: await turnsBetween(db, context.runId, context.startTurn, context.endTurn, names),
  };
}

export const consensusStudySchema = baseStudySchema.extend({
  trajectories: z.number().int().min(1, "at least one trajectory"),
  /** Gold snippets come from a finished study's expert labels (reference = rounded expert mean per topic). */
  goldFromStudyId: z.number().int().optional(),
});

/**
 * What is wrong with the study gold snippets are to come from (whatever the gold rate), in the form's terms; null when
 * it is a consensus study.
 */
async function goldSourceProblem(db: Db, fromStudyId: number): Promise<FieldProblem | null> {
  const source = Number.isInteger(fromStudyId) ? await findStudy(db, fromStudyId) : undefined;
  if (!source) return { path: "goldFromStudyId", message: `Study ${fromStudyId} does not exist` };
  if (source.type !== CONSENSUS_SNIPPET)
    return {
      path: "goldFromStudyId",
      message: `Study ${fromStudyId} is ${withArticle(taskTypeName(source.type))} study; gold snippets come from a consensus study`,
    };
  return null;
}

const withArticle = (name: string) => (/^[aeiou]/i.test(name) && !/^(one|uni)/i.test(name) ? "an " : "a ") + name;

export async function createConsensusStudy(db: Db, input: z.input<typeof consensusStudySchema>): Promise<number> {
  const goldProblem = input.goldFromStudyId === undefined ? null : await goldSourceProblem(db, input.goldFromStudyId);
  const data = parseOrThrow(consensusStudySchema, input, goldProblem ? [goldProblem] : []);
  const config = parseStudyConfig(data.config);
  if (config.allocation === "active") return await createActiveStudy(db, data, config);
  const pool = await evaluatedTrajectories(db);
  if (data.trajectories > pool.length) {
    throw badInput(`Only ${pool.length} evaluated trajectories are available; you asked for ${data.trajectories}`, [
      { path: "trajectories", message: `at most ${pool.length}` },
    ]);
  }
  const source = data.goldFromStudyId === undefined ? null : ((await findStudy(db, data.goldFromStudyId)) ?? null);
  const runIds = stratifiedSample(pool, data.trajectories, config.seed);
  const regular: NewItem<typeof CONSENSUS_SNIPPET>[] = [];
  for (const runId of runIds)
    for (const s of await snippetsOfRun(db, runId))
      regular.push({ kind: CONSENSUS_SNIPPET, snippetId: s.id, runId, isGold: false });
  let items = regular;
  if (source && config.goldRate > 0) {
    const gold = await goldSnippets(db, source, new Set(regular.map((r) => r.snippetId as number)));
    items = mixGold(regular, gold, config.goldRate, config.seed).map(({ item }) => item);
  }
  return await insertStudy(db, CONSENSUS_SNIPPET, data, items, { trajectories: data.trajectories });
}

/**
 * An active study (docs/active-labelling.md): its population and draw order are stored now, its items appear as runs
 * are drawn; `trajectories` is the budget, the most runs it will draw.
 */
async function createActiveStudy(
  db: Db,
  data: z.infer<typeof consensusStudySchema>,
  config: StudyConfig,
): Promise<number> {
  const backbones = config.judgeBackbones ?? [];
  if (backbones.length === 0 || new Set(backbones).size !== backbones.length) {
    throw badInput("An active study needs its judge backbone (and, optionally, a different second one)", [
      { path: "judgeBackbones", message: backbones.length ? "choose two different backbones" : "choose the judge" },
    ]);
  }
  const population = await activePopulation(db, backbones);
  if (data.trajectories > population.length) {
    throw badInput(
      `Only ${population.length} runs have the judge's evaluation; the budget asks for ${data.trajectories}`,
      [{ path: "trajectories", message: `at most ${population.length}` }],
    );
  }
  return await transact(db, async (db) => {
    const studyId = await insertStudy(db, CONSENSUS_SNIPPET, data, [], {
      trajectories: data.trajectories,
      goldFromStudyId: data.goldFromStudyId,
    });
    await storePopulation(db, studyId, population, config.seed);
    return studyId;
  });
}

async function consensusFromFields(db: Db, form: FormData, common: CommonStudyInput): Promise<number> {
  const allocation = form.get("allocation");
  const backbones = [form.get("judgeBackbone"), form.get("judgeBackbone2")].filter(
    (b): b is string => typeof b === "string" && b !== "",
  );
  return await createConsensusStudy(db, {
    ...common,
    config: {
      ...common.config,
      ...(typeof allocation === "string" && allocation !== "" ? { allocation } : {}),
      // The judge selects are on the form whatever the mode; only an active study reads them.
      ...(allocation === "active" && backbones.length ? { judgeBackbones: backbones } : {}),
    } as CommonStudyInput["config"],
    trajectories: formNumber(form, "trajectories") ?? Number.NaN,
    goldFromStudyId: formNumber(form, "goldFromStudyId"),
  });
}

/** A trajectory's first snippet has nothing before it: carry-forward there is refused in the annotator's terms. */
async function refuseCarryOnFirstSnippet(
  item: ItemRow,
  label: ConsensusLabel,
  context: () => Promise<SnippetContext>,
): Promise<void> {
  if (item.snippetId === null) return;
  const carried = Object.keys(label.topics).filter((id) => label.topics[id].carriedForward);
  if (carried.length === 0 || (await context()).position > 1) return;
  const message =
    "this is the first snippet of the conversation, so there is nothing to carry forward: give a score and positions";
  const problems = carried.map((id) => ({ path: `topics.${id}.carriedForward`, message }));
  throw badInput("Carry-forward is not possible on a conversation's first snippet", problems);
}

const definition = taskType(CONSENSUS_SNIPPET);

export const consensusSnippetServer = {
  id: CONSENSUS_SNIPPET,
  view: consensusTaskView,
  available: evaluatedTrajectoryCount,
  formChoices: async (db) => ({
    goldSources: (await listStudyRows(db))
      .filter((s) => s.type === CONSENSUS_SNIPPET)
      .map((s) => ({ id: s.id, name: s.name, pool: s.pool })),
    judges: await topicJudgeBackbones(db),
  }),
  createFromForm: async (db, form, common) => await consensusFromFields(db, form, common),
  createFromFields: consensusFromFields,
  refuseOnSubmit: refuseCarryOnFirstSnippet,
  dashboard: consensusDashboard,
  dashboardView: (d, { reference }) => ({
    kind: CONSENSUS_SNIPPET,
    agreement: summarizeAgreement(d.agreement),
    agreementWithoutFlagged: d.agreementWithoutFlagged ? summarizeAgreement(d.agreementWithoutFlagged) : null,
    fidelity: null,
    alignment: d.alignment,
    trend: d.trend,
    // The reference is the page's choice, so the difference tests are run for the view.
    comparison: d.alignment ? comparisonPanel(d.alignment, reference ?? null, d.boot) : null,
    stopping: d.stopping,
  }),
  // The trend and the alignment scatter are this type's own (dashboardView above fills their data).
  dashboardCharts: (view) =>
    consensusCharts(view.trend as ConsensusTrend | null, view.alignment as AlignmentTable | null),
  // One row per topic of each label, topics in id order.
  csv: {
    header: [
      "run_id",
      "snippet_position",
      "start_turn",
      "end_turn",
      "topic_id",
      "score",
      "carried_forward",
      "positions",
    ],
    rows: (label, item) =>
      Object.entries(ofKind<ConsensusLabel>(CONSENSUS_SNIPPET, label.payload)?.topics ?? {})
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([topicId, t]) => [
          item.runId,
          item.snippetPosition,
          item.startTurn,
          item.endTurn,
          topicId,
          t.score,
          t.carriedForward ? 1 : 0,
          JSON.stringify(t.positions),
        ]),
  },
  jsonItemFields: (item) => ({
    run_id: item.runId,
    snippet_position: item.snippetPosition,
    start_turn: item.startTurn,
    end_turn: item.endTurn,
  }),
  taskPart: async (db, item, annotatorId, saved) => {
    // The snippet's place in its run, read once for the view and the carry-forward label.
    const context = await snippetContext(db, item.snippetId as number);
    return {
      task: await consensusTaskView(db, item, context),
      previousLabel: annotatorId === null ? null : await previousOwnLabel(db, item, annotatorId, context),
      initialLabel: definition.resume(saved.draft, saved.latest),
      initialChoice: null,
    };
  },
} satisfies TaskTypeServer<typeof CONSENSUS_SNIPPET, Awaited<ReturnType<typeof consensusDashboard>>>;
