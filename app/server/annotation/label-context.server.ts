/**
 * The words around a study's items for reviewing labels (My labels, a label's history): the
 * scenario each item was played in and its place ("Trajectory 2 · snippet 3 of 6", "Pair 4 of 20
 * · about Bob"). Only blinded facts leave here: titles, topic and party names, option text.
 */
import type { ScenarioBody } from "../../domain/bundle.ts";
import { itemPlaces, type PlaceItem } from "../../domain/label-review/place.ts";
import { summariseAnswer, type AnswerSummary } from "../../domain/label-review/summary.ts";
import type { LabelPayload } from "../../task-types/registry.ts";
import type { Db } from "../db.server.ts";
import { findAbPair } from "../models/ab-pair.server.ts";
import { snippetsOfRun } from "../models/snippet.server.ts";
import { itemsWithContext } from "../models/study.server.ts";
import { playedScenarioOfRun } from "./task-view.server.ts";

export interface ItemWords {
  scenario: string;
  place: string;
  /** The label in words, against the scenario the item was played in. */
  summarise: (payload: LabelPayload) => AnswerSummary;
  /** The scenario as played (blinded use only: topic and party names, option text). */
  body: ScenarioBody;
  /** The compared party's name on an A/B item, else "". */
  targetName: string;
}

/**
 * The words of the study's items in `wanted`, by item id. Places are numbered over the whole study
 * (one query), but scenarios and snippet counts are read only for the wanted items.
 */
export async function itemWordsOfStudy(
  db: Db,
  studyId: number,
  wanted: ReadonlySet<number>,
): Promise<Map<number, ItemWords>> {
  const played = new Map<string, { title: string; body: ScenarioBody }>();
  const scenarioOf = async (runId: string) =>
    played.get(runId) ?? played.set(runId, await playedScenarioOfRun(db, runId)).get(runId)!;
  const items = await Promise.all(
    (await itemsWithContext(db, [studyId])).map(async (item) => {
      // A/B items read the scenario from conversation A, as the task page does.
      const runId = !wanted.has(item.itemId)
        ? null
        : item.pairId
          ? ((await findAbPair(db, item.pairId))?.runAId ?? null)
          : item.runId;
      const scenario = runId ? await scenarioOf(runId) : null;
      const targetName = item.targetParty
        ? (scenario?.body.parties.find((p) => p.id === item.targetParty)?.name ?? null)
        : null;
      return {
        itemId: item.itemId,
        kind: item.kind,
        runId: item.pairId ? null : item.runId,
        snippetPosition: item.snippetPosition,
        targetName,
        scenario,
      };
    }),
  );
  const wantedRuns = [...new Set(items.flatMap((i) => (i.runId && wanted.has(i.itemId) ? [i.runId] : [])))];
  const places = itemPlaces(
    items satisfies PlaceItem[],
    new Map(
      await Promise.all(
        wantedRuns.map(async (runId): Promise<[string, number]> => [runId, (await snippetsOfRun(db, runId)).length]),
      ),
    ),
  );
  const empty: ScenarioBody = { background: "", topics: [], parties: [] };
  return new Map(
    items
      .filter((item) => wanted.has(item.itemId))
      .map((item) => [
        item.itemId,
        {
          scenario: item.scenario?.title ?? "Unknown scenario",
          place: places.get(item.itemId) ?? "",
          summarise: (payload: LabelPayload) =>
            summariseAnswer(payload, item.scenario?.body ?? empty, item.targetName ?? undefined),
          body: item.scenario?.body ?? empty,
          targetName: item.targetName ?? "",
        },
      ]),
  );
}
