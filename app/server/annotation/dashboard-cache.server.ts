/**
 * The dashboard page's figures, computed once per (study, parameter set) and served from an
 * in-process LRU until the study's data mark (models/data-version.server.ts, kept by SQLite
 * triggers) moves: any new or revised label, exclusion, gold or config change, evaluation, run or
 * annotator change, by this process or another. The mark is read before an entry is computed and again after: marks
 * only grow, so an unchanged mark means every query in between read the same committed state, and an entry a write
 * overtook is not kept (a cached value always belongs to its mark; no read transaction is held, on either engine).
 * An entry is kept from the start of its computation, as a promise, so requests that miss at once share one
 * computation. Leases are not in the mark (allocation writes them on
 * every task request): the page's lease parts (progress and names, dashboard.server.ts `leaseParts`) are kept under
 * the data mark plus the study's lease mark, which every assignment write moves, and only until the first running
 * lease ends, since a lease ends by the clock without a write. The bootstrap
 * is seeded from the study config, so a cached value equals a fresh computation.
 * `SOCRATES_DASHBOARD_CACHE=off` computes every request afresh (bench/dashboard.ts's "before").
 */
import type { ChannelStats } from "../../domain/crowd/channel-stats.ts";
import { studyChannelStats } from "../crowd/channel-stats.server.ts";
import type { Db } from "../db.server.ts";
import { insideTransaction } from "../db-transaction.server.ts";
import { dashboardMark, leaseMark } from "../models/data-version.server.ts";
import { dashboardAnalytics, leaseParts, withLeaseParts, type DashboardAnalytics } from "./dashboard.server.ts";
import {
  figuresView,
  namedView,
  studyDashboardView,
  type StudyDashboardView,
  type ViewOptions,
} from "./dashboard-view.server.ts";
import { dashboardCharts } from "../../task-types/registry.server.ts";
import type { DashboardCharts } from "../../domain/charts/chart-data.ts";
import { goldDotsSpec } from "../../domain/charts/views.ts";
import { renderChart } from "../charts/render.server.ts";
import { studyLabelComments } from "./label-comments.server.ts";

/**
 * Entries per database connection: a figures entry per (study, flagged exclusion, fast-label exclusion), a view entry
 * and a named view entry (with the lease parts) per reference too.
 */
export const DASHBOARD_CACHE_ENTRIES = 48;

/** A bounded map that forgets its least recently used entry when full (a Map keeps insertion order). */
class Lru<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** The entry under `key` without making it recent. */
  peek(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Forgets the entry under `key` if `is` says it is the one (another request may have replaced it since). */
  forget(key: string, is: (value: V) => boolean): void {
    const value = this.entries.get(key);
    if (value !== undefined && is(value)) this.entries.delete(key);
  }
}

/**
 * What the page needs beyond the view: per-channel figures, the latest label comments (their query reads every label
 * of the study, so once per mark) and the charts (drawn once per entry).
 */
interface Figures {
  analytics: DashboardAnalytics;
  channels: ChannelStats[];
  labelComments: LabelComments;
  charts?: Promise<DashboardCharts>;
}

type LabelComments = Awaited<ReturnType<typeof studyLabelComments>>;

interface Entry {
  mark: string;
  /** The computation, settled or not (a promise of the entry's value). */
  value: Promise<unknown>;
}

interface Cache {
  lru: Lru<Entry>;
  hits: number;
  misses: number;
  /** Times the lease parts were read from the database rather than served from an entry. */
  leaseReads: number;
}

/** A page view with its lease parts, good until the first running lease ends (null: none runs). */
interface NamedEntry {
  view: StudyDashboardView;
  endsAt: string | null;
}

const caches = new WeakMap<Db, Cache>();

function cacheOf(db: Db): Cache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { lru: new Lru(DASHBOARD_CACHE_ENTRIES), hits: 0, misses: 0, leaseReads: 0 }));
  return cache;
}

/**
 * Hits and misses of the figures so far on this connection, and reads of the lease parts (tests check that a write made
 * the next request recompute what it changed, and only that).
 */
export function dashboardCacheStats(db: Db): { hits: number; misses: number; leaseReads: number } {
  const { hits, misses, leaseReads } = cacheOf(db);
  return { hits, misses, leaseReads };
}

/**
 * Starts computing the entry under `key` for `mark` and keeps it at once (so a request missing meanwhile shares it);
 * forgets it if it fails, or if `markNow` finds that a write overtook it (its value may mix two states).
 */
function keep<V>(cache: Cache, key: string, mark: string, markNow: () => Promise<string>, compute: () => Promise<V>) {
  const value = (async () => {
    const result = await compute();
    if ((await markNow()) !== mark) cache.lru.forget(key, (e) => e.value === value);
    return result;
  })();
  cache.lru.set(key, { mark, value });
  value.catch(() => cache.lru.forget(key, (e) => e.value === value));
  return value;
}

/** The entry under `key` while its mark is `mark`, else computed now (shared with the requests that miss at once). */
function cached<V>(
  cache: Cache,
  key: string,
  mark: string,
  markNow: () => Promise<string>,
  compute: () => Promise<V>,
): Promise<V> {
  const hit = cache.lru.get(key);
  if (hit && hit.mark === mark) {
    cache.hits++;
    return hit.value as Promise<V>;
  }
  cache.misses++;
  return keep(cache, key, mark, markNow, compute);
}

/**
 * The named view under `key` while its mark is `mark` and no lease has ended by `now`, else read now (shared like
 * `cached`'s entries). An ended entry is replaced only if it is still the one kept when its value was seen.
 */
async function namedEntry(
  cache: Cache,
  key: string,
  mark: string,
  now: Date,
  markNow: () => Promise<string>,
  compute: () => Promise<NamedEntry>,
): Promise<NamedEntry> {
  for (let hit = cache.lru.get(key); hit?.mark === mark; hit = cache.lru.get(key)) {
    const pending = hit.value as Promise<NamedEntry>;
    const named = await pending;
    if (named.endsAt === null || now.toISOString() < named.endsAt) return named;
    if (cache.lru.peek(key)?.value === pending) break;
  }
  return await keep(cache, key, mark, markNow, compute);
}

export interface DashboardPage {
  view: StudyDashboardView;
  channels: ChannelStats[];
  labelComments: LabelComments;
  charts: Promise<DashboardCharts>;
}

const cacheEnabled = () => process.env.SOCRATES_DASHBOARD_CACHE !== "off";

/** The dashboard page's data, from the cache while the study's marks stand and no lease has ended since. */
export async function dashboardPage(
  db: Db,
  studyId: number,
  options: ViewOptions,
  now = new Date(),
): Promise<DashboardPage> {
  // Inside a caller's transaction the mark may belong to writes not yet committed (or about to be rolled back).
  if (!cacheEnabled() || insideTransaction(db)) return await freshPage(db, studyId, options);
  const cache = cacheOf(db);
  const dataMark = () => dashboardMark(db, studyId);
  const mark = await dataMark();
  const params = `${studyId}:${options.excludeFlagged ? "excluding" : "all"}:${options.excludeFast ? "without-fast" : "with-fast"}`;
  const figures = await cached(cache, `figures:${params}`, mark, dataMark, async (): Promise<Figures> => {
    const analytics = await dashboardAnalytics(db, studyId, options);
    return {
      analytics,
      channels: await studyChannelStats(db, studyId, analytics.gold),
      labelComments: await studyLabelComments(db, studyId),
    };
  });
  const viewKey = `view:${params}:${options.reference ?? ""}`;
  // The data mark the figures were read under, so a named view never outlives them.
  const namedMark = `${mark};leases=${await leaseMark(db, studyId)}`;
  const namedMarkNow = async () => `${await dataMark()};leases=${await leaseMark(db, studyId)}`;
  const named = await namedEntry(cache, `named:${viewKey}`, namedMark, now, namedMarkNow, async () => {
    const part = await cached(cache, viewKey, mark, dataMark, async () =>
      figuresView(figures.analytics.figures, options),
    );
    cache.leaseReads++;
    const parts = await leaseParts(db, figures.analytics, now);
    const view = namedView(await withLeaseParts(db, figures.analytics, parts), part);
    return { view, endsAt: parts.endsAt };
  });
  return {
    view: named.view,
    channels: figures.channels,
    labelComments: figures.labelComments,
    charts: chartsOf(figures, named.view),
  };
}

/** The page's data computed now, uncached. */
export async function freshPage(db: Db, studyId: number, options: ViewOptions): Promise<DashboardPage> {
  const view = await studyDashboardView(db, studyId, options);
  return {
    view,
    channels: await studyChannelStats(db, studyId, view.gold),
    labelComments: await studyLabelComments(db, studyId),
    charts: pageCharts(view),
  };
}

/** The type's charts and gold accuracy per annotator (once anyone has attempted a gold item). */
async function pageCharts(view: StudyDashboardView): Promise<DashboardCharts> {
  const charts = await dashboardCharts(view);
  const gold = view.gold.filter((g) => g.attempted > 0);
  if (gold.length === 0) return charts;
  const rows = gold.map((g) => ({ name: view.names[g.annotatorId] ?? g.annotatorId, ...g }));
  return { ...charts, gold: await renderChart(goldDotsSpec(rows)) };
}

/**
 * The charts, drawn once per figures entry (Vega's rendering costs more than the rest of a cached page); none of them
 * depends on the reference backbone, the one view parameter the entry does not fix.
 */
function chartsOf(figures: Figures, view: StudyDashboardView): Promise<DashboardCharts> {
  if (!figures.charts) {
    const charts = pageCharts(view);
    figures.charts = charts;
    // A failed rendering is not kept: the next request tries again.
    charts.catch(() => {
      if (figures.charts === charts) figures.charts = undefined;
    });
  }
  return figures.charts;
}
