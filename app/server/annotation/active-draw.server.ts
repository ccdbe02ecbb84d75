/**
 * Active labelling's study side (issue 33, docs/active-labelling.md). At creation an active
 * consensus study stores its population: the candidate runs that have the chosen judge's
 * evaluation, each with the judge's uncertainty, its size and its sequential Poisson key per
 * mediator stratum. No item exists yet: when an annotator asks for work and nothing is open for
 * them, allocation's IMMEDIATE transaction draws the next run (active-design.ts `nextToDraw`) and
 * appends its snippets as items (with gold mixed in at the study's rate), then allocates as usual.
 */
import { judgeUncertainty, nextToDraw, planDraws, type PopulationRun } from "../../domain/estimation/active-design.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";
import { mixGold } from "../../domain/validation/sampling.ts";
import { goldSnippets } from "../../task-types/consensus-snippet/gold-source.server.ts";
import type { Db } from "../db.server.ts";
import { judgeReadings, finalTopicScores } from "../estimation/judge-readings.server.ts";
import { badInput } from "../http/errors.server.ts";
import { evaluatedTrajectories } from "../models/run.server.ts";
import { snippetsOfRun } from "../models/snippet.server.ts";
import { appendItems, drawsOf, insertDraws, markDrawn } from "../models/study-draw.server.ts";
import { findStudy, itemsOfStudy, type NewStudyItem, type StudyRow } from "../models/study.server.ts";

/**
 * An active study's population: today's candidate runs (evaluated, with snippets) that every named
 * judge backbone scored on every topic at the final turn, with the judge's uncertainty. A 400
 * naming `judgeBackbones` when there is none.
 */
export async function activePopulation(db: Db, backbones: readonly string[]): Promise<PopulationRun[]> {
  const candidates = await evaluatedTrajectories(db);
  const readings = await judgeReadings(
    db,
    candidates.map((c) => c.runId),
    backbones,
  );
  const finals = finalTopicScores(readings, backbones);
  const population = candidates.flatMap((c) => {
    const scores = finals.get(c.runId);
    return scores ? [{ runId: c.runId, mediator: c.mediator, uncertainty: judgeUncertainty(scores) }] : [];
  });
  if (population.length === 0) {
    throw badInput(`No run has a topic-localized evaluation by ${backbones.join(" and ")} on every topic`, [
      { path: "judgeBackbones", message: "choose a judge backbone that has scored the runs" },
    ]);
  }
  return population;
}

/** Stores the population's draw order for a new active study (in the creating transaction). */
export async function storePopulation(
  db: Db,
  studyId: number,
  population: readonly PopulationRun[],
  seed: number,
): Promise<void> {
  await insertDraws(db, studyId, planDraws(population, seed));
}

/** Whether an active study may still draw a run (read-only): within its budget, with a run left. */
export async function canDraw(db: Db, study: StudyRow): Promise<boolean> {
  const config = parseStudyConfig(study.config);
  if (config.allocation !== "active") return false;
  return nextToDraw(await drawsOf(db, study.id), config.trajectories ?? Number.POSITIVE_INFINITY) !== null;
}

/**
 * Draws an active study's next run and appends its snippets (and gold, at the study's rate) as
 * items; false when the study is not active, its budget is spent or no run is left. Call it inside
 * the allocation's IMMEDIATE transaction: the write lock is what keeps two askers from drawing the
 * same run or two runs where one was due.
 */
export async function drawNextRun(db: Db, study: StudyRow, now: Date): Promise<boolean> {
  const config = parseStudyConfig(study.config);
  if (config.allocation !== "active") return false;
  const next = nextToDraw(await drawsOf(db, study.id), config.trajectories ?? Number.POSITIVE_INFINITY);
  if (!next) return false;
  const position = await markDrawn(db, study.id, next.runId, now.toISOString());
  const regular = (await snippetsOfRun(db, next.runId)).map(
    (s): NewStudyItem => ({
      kind: study.type,
      snippetId: s.id,
      runId: next.runId,
      isGold: false,
    }),
  );
  const source = config.goldFromStudyId === undefined ? undefined : await findStudy(db, config.goldFromStudyId);
  if (!source || config.goldRate === 0) {
    await appendItems(db, study.id, regular);
    return true;
  }
  // Gold already in the study, and this run's own snippets, are not offered again.
  const used = new Set([...(await itemsOfStudy(db, study.id)), ...regular].map((i) => i.snippetId as number));
  const gold = (await goldSnippets(db, source, used)).map((g) => ({ ...g, kind: study.type }));
  // Each draw mixes with its own seed, so the gold's places differ from run to run.
  const mixed = mixGold<NewStudyItem>(regular, gold, config.goldRate, config.seed + position);
  await appendItems(
    db,
    study.id,
    mixed.map(({ item }) => item),
  );
  return true;
}
