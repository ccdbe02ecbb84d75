/**
 * A/B reactiveness on the server: a study takes stored reactiveness pairs (the 0-against-1 pairs
 * are the gold candidates), the New-study form may upload a bundle of pairs, and the dashboard
 * shows agreement on the choices and fidelity per simulator backbone — the crowd's, and beside
 * it the automatic proxy from the runs' emotion (app/domain/emotion/fidelity-proxy.ts).
 */
import { z } from "zod";
import { fidelityProxy, type BackboneProxy } from "../../domain/emotion/fidelity-proxy.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";
import { AB_REACTIVENESS, type AbLabelPayload } from "./label.ts";
import { taskType } from "../registry.ts";
import { ofKind } from "../resume.ts";
import { abSummary, mixGold, summarizeAgreement, type AbItem, type AbLabelRow } from "../../domain/validation/index.ts";
import { BundleImportError, importBundleFiles } from "../../server/bundle-store.server.ts";
import type { Db } from "../../server/db.server.ts";
import { badInput, notFound } from "../../server/http/errors.server.ts";
import { preferredVolatilityReader, storedProxyPairs } from "../../server/emotion-trajectories.server.ts";
import { withWriteLock } from "../../server/http/write-lock.server.ts";
import {
  abPairCount,
  abPairCountsByBackbone,
  listAbPairsWithBackbone,
  type AbPairRow,
  type AbPairWithBackbone,
  findAbPair,
} from "../../server/models/ab-pair.server.ts";
import { blindScenario, playedScenarioOfRun, turnsBetween } from "../../server/annotation/task-view.server.ts";
import type { ItemRow } from "../../server/models/study.server.ts";
import type { AbTaskView } from "./view.ts";
import { renderChart } from "../../server/charts/render.server.ts";
import { fidelityDotsSpec } from "../../domain/charts/views.ts";
import type { BackboneFidelity } from "../../domain/metrics/persona-fidelity.ts";
import type { DashboardContext, TaskTypeServer } from "../handler.server.ts";
import {
  baseStudySchema,
  insertStudy,
  parseOrThrow,
  type CommonStudyInput,
  type NewItem,
} from "../../server/annotation/new-study.server.ts";

/** The pair's two conversations in full, its scenario blinded, the compared party named. */
export async function abTaskView(db: Db, item: ItemRow): Promise<AbTaskView> {
  const pair = await findAbPair(db, item.abPairId as string);
  if (!pair) throw notFound(`A/B pair of item ${item.id}`);
  const { title, body } = await playedScenarioOfRun(db, pair.runAId);
  const names = new Map(body.parties.map((p) => [p.id, p.name]));
  const whole = async (runId: string) => await turnsBetween(db, runId, 1, Number.MAX_SAFE_INTEGER, names);
  return {
    kind: AB_REACTIVENESS,
    scenario: blindScenario(title, body),
    conversationA: await whole(pair.runAId),
    conversationB: await whole(pair.runBId),
    targetParty: { id: pair.targetParty, name: names.get(pair.targetParty) ?? pair.targetParty },
  };
}

export const abStudySchema = baseStudySchema.extend({
  /** The pairs to label; all stored pairs when omitted. */
  pairIds: z.array(z.string()).optional(),
  /** Only pairs whose runs these simulator backbones played (the Table 1 layout: one row each). */
  backbones: z.array(z.string().min(1)).min(1, "choose at least one simulator backbone").optional(),
});

/** The pairs with the given ids (all when none are given); refuses unknown ids. */
function pairsById(all: AbPairWithBackbone[], pairIds: string[] | undefined): AbPairWithBackbone[] {
  if (!pairIds) return all;
  const known = new Set(all.map((p) => p.id));
  const unknown = pairIds.filter((id) => !known.has(id));
  if (unknown.length)
    throw badInput(`Unknown A/B pair ids: ${unknown.join(", ")}`, [{ path: "pairIds", message: "unknown pair" }]);
  const wanted = new Set(pairIds);
  return all.filter((p) => wanted.has(p.id));
}

/** The pairs the given simulator backbones played (all when none are given); refuses a backbone no stored pair has. */
function pairsByBackbone(
  pairs: AbPairWithBackbone[],
  all: AbPairWithBackbone[],
  backbones: string[] | undefined,
): AbPairWithBackbone[] {
  if (!backbones) return pairs;
  const known = [...new Set(all.map((p) => p.backbone))].sort();
  const unknown = backbones.filter((b) => !known.includes(b));
  if (unknown.length) {
    const message = `no stored A/B pair was simulated by ${unknown.map((b) => `"${b}"`).join(", ")}`;
    throw badInput(`Unknown simulator backbone: ${message} (stored: ${known.join(", ") || "none"})`, [
      { path: "backbones", message },
    ]);
  }
  const wanted = new Set(backbones);
  return pairs.filter((p) => wanted.has(p.backbone));
}

/** The stored pairs chosen by id and by backbone (both when both are given); refuses an empty result. */
async function chosenPairs(
  db: Db,
  pairIds: string[] | undefined,
  backbones: string[] | undefined,
): Promise<AbPairRow[]> {
  const all = await listAbPairsWithBackbone(db);
  const pairs = pairsByBackbone(pairsById(all, pairIds), all, backbones);
  if (pairs.length === 0) {
    const path = backbones ? "backbones" : "pairIds";
    throw badInput(
      backbones
        ? "None of the chosen pairs was simulated by the chosen backbones"
        : "There are no A/B pairs to label: import a bundle with ab_pairs first",
      [{ path, message: "no pairs" }],
    );
  }
  return pairs;
}

export async function createAbStudy(db: Db, input: z.input<typeof abStudySchema>): Promise<number> {
  const data = parseOrThrow(abStudySchema, input);
  const config = parseStudyConfig(data.config);
  const pairs = await chosenPairs(db, data.pairIds, data.backbones);
  const asItem = (p: AbPairRow, isGold: boolean): NewItem<typeof AB_REACTIVENESS> => ({
    kind: AB_REACTIVENESS,
    abPairId: p.id,
    isGold,
    gold: isGold ? { choice: p.levelA > p.levelB ? "A" : "B" } : undefined,
  });
  // Pairs at the grid's extremes (0 against 1) have an unmistakable answer: the gold candidates.
  const isExtreme = (p: AbPairRow) => Math.min(p.levelA, p.levelB) === 0 && Math.max(p.levelA, p.levelB) === 1;
  const candidates = pairs.filter(isExtreme);
  const regular = pairs.filter((p) => !isExtreme(p));
  const mixed = mixGold(regular, candidates, config.goldRate, config.seed);
  const chosenGold = new Set(mixed.filter((m) => m.isGold).map((m) => m.item.id));
  const items = mixed.map(({ item, isGold }) => asItem(item, isGold));
  // Extreme pairs not drawn as gold are still real data.
  for (const p of candidates) if (!chosenGold.has(p.id)) items.push(asItem(p, false));
  return await insertStudy(db, AB_REACTIVENESS, data, items, {});
}

/** Imports an uploaded bundle (all or nothing) and returns the A/B pair ids it carries. */
async function importUploadedPairs(db: Db, file: { name: string; bytes: Uint8Array }): Promise<string[]> {
  try {
    await importBundleFiles(db, [{ file: file.name || "upload.json", bytes: file.bytes }]);
  } catch (err) {
    if (!(err instanceof BundleImportError)) throw err;
    throw badInput(
      `The bundle was not imported (${err.problems.length} problems)`,
      err.problems.slice(0, 20).map((p) => ({ path: `${p.file}: ${p.path}`, message: p.message })),
    );
  }
  // Just imported, hence valid UTF-8 and JSON with valid records.
  const pairIds = (
    (JSON.parse(new TextDecoder().decode(file.bytes)) as { ab_pairs?: { id: string }[] }).ab_pairs ?? []
  ).map((p) => p.id);
  if (pairIds.length === 0)
    throw badInput("The uploaded bundle has no ab_pairs", [{ path: "bundle", message: "no A/B pairs" }]);
  return pairIds;
}

/** The pair ids typed into the form. */
const typedPairIds = (form: FormData) =>
  String(form.get("pairIds") ?? "")
    .split(/[\s,]+/)
    .filter(Boolean);

/** The study the form's fields describe, with `pairIds` (typed, or typed and uploaded). */
async function abFromFields(
  db: Db,
  form: FormData,
  common: CommonStudyInput,
  pairIds = typedPairIds(form),
): Promise<number> {
  const backbones = form.getAll("backbones").map(String).filter(Boolean);
  return await createAbStudy(db, {
    ...common,
    pairIds: pairIds.length ? pairIds : undefined,
    backbones: backbones.length ? backbones : undefined,
  });
}

/** The form's pair ids, with those of a bundle uploaded beside them (imported first). */
async function formPairIds(db: Db, form: FormData): Promise<string[]> {
  const pairIds = typedPairIds(form);
  const upload = form.get("bundle");
  if (!(upload instanceof File) || upload.size === 0) return pairIds;
  // Bytes, not upload.text(): that replaces invalid UTF-8 silently; the import names where it is.
  const bytes = new Uint8Array(await upload.arrayBuffer());
  // Joins the route's transaction when there is one, else takes the write lock (see http/write-lock).
  const bundlePairs = await withWriteLock(
    db,
    async (db) => await importUploadedPairs(db, { name: upload.name, bytes }),
  );
  return [...new Set([...pairIds, ...bundlePairs])];
}

/** The proxy's per-backbone rows and its pooled row (every backbone's pairs together). */
export interface StudyProxy {
  byBackbone: BackboneProxy[];
  overall: BackboneProxy | null;
}

/**
 * The automatic fidelity proxy over the study's pairs (gold ones too: they are real pairs):
 * the target party's volatility in each run's preferred emotion trajectory against its level.
 */
export async function studyProxy(db: Db, pairIds: readonly string[]): Promise<StudyProxy> {
  const pairs = await storedProxyPairs(db, new Set(pairIds));
  const volatilityOf = await preferredVolatilityReader(db, pairs); // shared, so each run is read once for both
  const [overall = null] = fidelityProxy(
    pairs.map((p) => ({ ...p, backbone: "all" })),
    volatilityOf,
  );
  return { byBackbone: fidelityProxy(pairs, volatilityOf), overall };
}

async function abDashboard({ db, items, labels, flagged, boot }: DashboardContext) {
  const abItems: AbItem[] = items.map((i) => ({
    itemId: i.itemId,
    pairId: i.pairId as string,
    backbone: i.backbone as string,
    levelA: i.levelA as number,
    levelB: i.levelB as number,
    isGold: i.isGold,
  }));
  const abLabels: AbLabelRow[] = labels.map((l) => ({
    itemId: l.itemId,
    annotatorId: l.annotatorId,
    payload: l.payload as AbLabelPayload,
  }));
  return {
    kind: AB_REACTIVENESS,
    ab: abSummary(abItems, abLabels, boot),
    abWithoutFlagged: flagged.length ? abSummary(abItems, abLabels, { ...boot, exclude: flagged }) : null,
    proxy: await studyProxy(
      db,
      abItems.map((i) => i.pairId),
    ),
  };
}

const definition = taskType(AB_REACTIVENESS);

export const abReactivenessServer = {
  id: AB_REACTIVENESS,
  view: abTaskView,
  available: abPairCount,
  formChoices: async (db) => ({ backbones: await abPairCountsByBackbone(db) }),
  createFromForm: async (db, form, common) => {
    const pairIds = await formPairIds(db, form);
    return withWriteLock(db, async (db) => await abFromFields(db, form, common, pairIds));
  },
  createFromFields: async (db, form, common) => await abFromFields(db, form, common),
  dashboard: abDashboard,
  dashboardView: (d, { excludeFlagged }) => {
    // Fidelity follows the exclusion switch, like alignment does for consensus studies.
    const { fidelity, overall, unlabelledPairs, alphaByBackbone, nominal, pairableUnits } =
      excludeFlagged && d.abWithoutFlagged ? d.abWithoutFlagged : d.ab;
    return {
      kind: AB_REACTIVENESS,
      agreement: summarizeAgreement(d.ab),
      agreementWithoutFlagged: d.abWithoutFlagged ? summarizeAgreement(d.abWithoutFlagged) : null,
      // The proxy reads no labels, so the exclusion switch leaves it as it is.
      fidelity: { fidelity, overall, unlabelledPairs, alphaByBackbone, nominal, pairableUnits, proxy: d.proxy },
      alignment: null,
      trend: null,
      comparison: null,
    };
  },
  // Fidelity as dots with Wilson intervals, once a pair has a label.
  dashboardCharts: async (view) => {
    const { fidelity } = view as { fidelity: { fidelity: BackboneFidelity[] } | null };
    const rows = fidelity?.fidelity.filter((f) => f.pairs > 0) ?? [];
    return rows.length > 0 ? { fidelity: await renderChart(fidelityDotsSpec(rows)) } : {};
  },
  csv: {
    header: ["pair_id", "simulator_backbone", "target_party", "level_a", "level_b", "choice"],
    rows: (label, item) => [
      [
        item.pairId,
        item.backbone,
        item.targetParty,
        item.levelA,
        item.levelB,
        ofKind<AbLabelPayload>(AB_REACTIVENESS, label.payload)?.choice ?? "",
      ],
    ],
  },
  jsonItemFields: (item) => ({
    pair_id: item.pairId,
    simulator_backbone: item.backbone,
    target_party: item.targetParty,
    level_a: item.levelA,
    level_b: item.levelB,
  }),
  taskPart: async (db, item, _annotatorId, saved) => ({
    task: await abTaskView(db, item),
    previousLabel: null,
    initialLabel: null,
    initialChoice: definition.resume(saved.draft, saved.latest)?.choice ?? null,
  }),
} satisfies TaskTypeServer<typeof AB_REACTIVENESS, Awaited<ReturnType<typeof abDashboard>>>;
