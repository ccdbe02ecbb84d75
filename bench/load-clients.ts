/**
 * Annotators as HTTP clients (node fetch, a cookie jar each, no browser) against the real
 * server: log in, then loop — next task, the item, now and then a draft save, a submit with the
 * form fields the task page sends. Since issue 29 the next item is leased only by a POST: the
 * first by a POST of /annotate/:study/next, the others by the submit itself. Two ways to move between items:
 *   - "document": full page loads, as without JavaScript (bench:load, the import-under-load test);
 *   - "browser": what Chromium sends once the app runs (recorded by bench/load-browser-cycle.ts):
 *     Remix single-fetch `.data` requests — the submit posts to `<item>.data` with `carry=next-page` and its
 *     answer (200) carries the next item's page, so nothing else is fetched (issue 35; without a page to carry, a 202
 *     → the next step, then `<item>.data?_routes=<the item route>`: the root's data is not asked again, and the
 *     page carries the whole route manifest, so no `/__manifest`); a draft is a POST to `<item>.data` alone (no
 *     revalidation GET after it).
 * Every request is timed and its status recorded; a 503 (the server's "busy, retry") is retried
 * after its Retry-After with the same client token, as a resent form would be.
 */
import type { ConsensusLabel } from "../app/task-types/consensus-snippet/label.ts";
import type { Account } from "./load-fixture.ts";

export type RequestKind = "login" | "logout" | "next" | "item" | "draft" | "submit";
export type ClientMode = "document" | "browser";

export interface Sample {
  kind: RequestKind;
  /** performance.now() when the request started. */
  at: number;
  ms: number;
  status: number;
  /** False for an answer the client did not expect (any 5xx, a 4xx, a wrong redirect). */
  ok: boolean;
}

/** What all clients saw: every request, and the client tokens of the labels the server acknowledged. */
export class LoadRecord {
  readonly samples: Sample[] = [];
  readonly acknowledged: string[] = [];
  readonly failures: string[] = [];

  add(sample: Sample, detail?: string): void {
    this.samples.push(sample);
    if (!sample.ok && this.failures.length < 20)
      this.failures.push(`${sample.kind} ${sample.status}${detail ? `: ${detail.slice(0, 200)}` : ""}`);
  }
}

/** A minimal cookie jar: name=value pairs from Set-Cookie, sent back on every request. */
class CookieJar {
  private cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export interface ClientOptions {
  baseUrl: string;
  studyId: number;
  account: Account;
  label: ConsensusLabel;
  /** Checked before each task: true ends the loop. */
  stop: () => boolean;
  /** One task in this many saves a draft first. */
  draftEvery: number;
  record: LoadRecord;
  /** Full page loads (default) or the browser's single-fetch `.data` requests. */
  mode?: ClientMode;
  /** Milliseconds an annotator spends on an item before submitting (default: none, flat out). */
  thinkMs?: () => number;
  /** Annotators arrive (log in) at a random time within this many milliseconds (default: all at once). */
  arriveWithinMs?: number;
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
const MAX_RETRIES = 20;

type Requester = (
  kind: RequestKind,
  path: string,
  init: RequestInit,
  expect: (res: Response & { bodyText: string }) => boolean,
) => Promise<Response & { bodyText: string }>;

/**
 * A browser-less client with its own cookie jar: every request timed and recorded, a 503 retried after its Retry-After.
 */
function requester(baseUrl: string, record: LoadRecord, mode: ClientMode = "document"): Requester {
  const jar = new CookieJar();
  // A browser names the request's site (and, on a POST, its origin): the CSRF check sees what it sees from Chromium.
  const browserHeaders = (init: RequestInit): Record<string, string> =>
    mode === "browser"
      ? { "Sec-Fetch-Site": "same-origin", ...(init.method === "POST" ? { Origin: baseUrl } : {}) }
      : {};
  return async (kind, path, init, expect) => {
    for (let attempt = 0; ; attempt++) {
      const at = performance.now();
      let res: Response;
      let body: string;
      try {
        res = await fetch(baseUrl + path, {
          ...init,
          redirect: "manual",
          headers: { Cookie: jar.header(), ...browserHeaders(init), ...(init.headers ?? {}) },
        });
        body = await res.text();
      } catch (err) {
        // No answer at all (a connection reset): an error, recorded as status 0; resent like a 503.
        record.add(
          { kind, at, ms: performance.now() - at, status: 0, ok: false },
          `${path} ${String((err as Error).cause ?? err)}`,
        );
        if (attempt >= MAX_RETRIES) throw err;
        await sleep(1000);
        continue;
      }
      const ms = performance.now() - at;
      jar.store(res);
      const answer = Object.assign(res, { bodyText: body });
      const ok = expect(answer);
      record.add({ kind, at, ms, status: res.status, ok }, ok ? undefined : `${path} ${body}`);
      if (res.status === 503 && attempt < MAX_RETRIES) {
        await sleep(1000 * Number(res.headers.get("retry-after") ?? 1));
        continue;
      }
      return answer;
    }
  };
}

const form = (fields: Record<string, string>): RequestInit => ({ method: "POST", body: new URLSearchParams(fields) });
const redirectTo = (res: Response, pattern: RegExp) =>
  res.status === 302 && pattern.test(res.headers.get("location") ?? "");

/**
 * Logins wait their turn, a few at a time: the login limiter counts each attempt from this one
 * address as a failure until its password check succeeds, so 50 at once would look like guessing.
 */
const LOGINS_AT_ONCE = 8;
let loginsUnderWay = 0;

async function logIn(request: Requester, account: Account): Promise<void> {
  while (loginsUnderWay >= LOGINS_AT_ONCE) await sleep(20);
  loginsUnderWay++;
  try {
    const res = await request(
      "login",
      "/login",
      form({ username: account.username, password: account.password }),
      (r) => redirectTo(r, /^\/annotate/),
    );
    if (res.status !== 302) throw new Error(`login as ${account.username} failed: ${res.status}`);
  } finally {
    loginsUnderWay--;
  }
}

/** Logs `account` in and out again, a round every quarter second or so, until `stop()` (returns how many rounds). */
export async function runSessionClient(
  o: Pick<ClientOptions, "baseUrl" | "account" | "stop" | "record">,
): Promise<number> {
  const request = requester(o.baseUrl, o.record);
  let rounds = 0;
  while (!o.stop()) {
    await logIn(request, o.account);
    await request("logout", "/logout", form({}), (r) => redirectTo(r, /^\/login/));
    rounds++;
    await sleep(250);
  }
  return rounds;
}

/**
 * One annotator's session: logs in, then takes and submits tasks until `stop()` or no task is left; returns how many it
 * submitted.
 */
export async function runAnnotatorClient(o: ClientOptions): Promise<number> {
  const request = requester(o.baseUrl, o.record, o.mode);
  if (o.arriveWithinMs) await sleepUnless(Math.random() * o.arriveWithinMs, o.stop);
  await logIn(request, o.account);
  const session = o.mode === "browser" ? browserSession(request, o) : documentSession(request, o);
  let itemPath = await session.firstItem();
  let submitted = 0;
  while (itemPath !== null && !o.stop()) {
    const think = o.thinkMs?.() ?? 0;
    if (think > 0) await sleepUnless(think, o.stop);
    if (o.stop()) break;
    const payload = JSON.stringify(o.label);
    const clientToken = crypto.randomUUID().replace(/-/g, "");
    if (submitted % o.draftEvery === 0) await session.draft(itemPath, { clientToken, intent: "draft", payload });
    if (await session.submit(itemPath, { clientToken, intent: "submit", payload, secondsOnTask: "12.5" })) {
      o.record.acknowledged.push(clientToken);
      submitted++;
    }
    itemPath = await session.nextItem();
  }
  return submitted;
}

interface Session {
  /** The first item's path (null: nothing to do). */
  firstItem(): Promise<string | null>;
  draft(itemPath: string, fields: Record<string, string>): Promise<void>;
  /** True when the server acknowledged the label. */
  submit(itemPath: string, fields: Record<string, string>): Promise<boolean>;
  nextItem(): Promise<string | null>;
}

/**
 * Where a submit sends the client (issue 29: straight to the next item, leased in the POST, or to the "nothing left"
 * page).
 */
const nextStepOf = (studyId: number) => new RegExp(`^/annotate/${studyId}/(items/\\d+|next\\?done=1)$`);

/**
 * Without JavaScript: every step a full document (the next step is a POST that redirects to the item page, as is a
 * submit).
 */
function documentSession(request: Requester, o: ClientOptions): Session {
  const taskPath = new RegExp(`^/annotate/${o.studyId}/items/(\\d+)$`);
  const nextStep = nextStepOf(o.studyId);
  let queued: string | undefined;
  const open = async (location: string) => {
    if (!taskPath.test(location)) return null; // nothing left for this annotator
    await request("item", location, {}, (r) => r.status === 200);
    return location;
  };
  const takeNext = async () =>
    open(
      (await request("next", `/annotate/${o.studyId}/next`, form({}), (r) => redirectTo(r, nextStep))).headers.get(
        "location",
      ) ?? "",
    );
  return {
    firstItem: takeNext,
    nextItem: async () => {
      const location = queued;
      queued = undefined;
      return location === undefined ? takeNext() : open(location);
    },
    draft: async (itemPath, fields) => void (await request("draft", itemPath, form(fields), (r) => r.status === 200)),
    submit: async (itemPath, fields) => {
      const res = await request("submit", itemPath, form(fields), (r) => redirectTo(r, nextStep));
      if (!redirectTo(res, nextStep)) return false;
      queued = res.headers.get("location")!;
      return true;
    },
  };
}

/**
 * The next item's path from a submit's answer that carries its page (a single-fetch body: the path is the first
 * item address in it, before the page), or null.
 */
function carriedPath(body: string, studyId: number): string | null {
  return new RegExp(`"(/annotate/${studyId}/items/\\d+)"`).exec(body)?.[1] ?? null;
}

/** A single-fetch redirect: status 202 with the target in Location. */
const dataRedirectTo = (res: Response, pattern: RegExp) =>
  res.status === 202 && pattern.test(res.headers.get("location") ?? "");

/**
 * With JavaScript, as recorded in Chromium: the first item by a document POST, then `.data` requests only.
 */
function browserSession(request: Requester, o: ClientOptions): Session {
  const taskPath = new RegExp(`^/annotate/${o.studyId}/items/(\\d+)$`);
  const nextStep = nextStepOf(o.studyId);
  let queued: string | undefined;
  let shown: string | undefined;
  return {
    async firstItem() {
      const next = await request("next", `/annotate/${o.studyId}/next`, form({}), (r) => redirectTo(r, nextStep));
      const itemPath = next.headers.get("location") ?? "";
      if (!taskPath.test(itemPath)) return null;
      await request("item", itemPath, {}, (r) => r.status === 200);
      return itemPath;
    },
    async draft(itemPath, fields) {
      // Its POST alone: the page does not fetch its data again after a draft (draft-revalidation.ts).
      await request("draft", `${itemPath}.data`, form(fields), (r) => r.status === 200);
    },
    async submit(itemPath, fields) {
      const carried = (r: Response & { bodyText: string }) =>
        r.status === 200 ? carriedPath(r.bodyText, o.studyId) : null;
      const res = await request(
        "submit",
        `${itemPath}.data`,
        form({ ...fields, carry: "next-page" }),
        (r) => dataRedirectTo(r, nextStep) || carried(r) !== null,
      );
      const next = carried(res);
      if (next !== null) {
        // The answer carried the next item's page: the browser shows it without another request.
        shown = next;
        return true;
      }
      if (!dataRedirectTo(res, nextStep)) return false;
      queued = res.headers.get("location")!;
      return true;
    },
    async nextItem() {
      if (shown !== undefined) {
        const itemPath = shown;
        shown = undefined;
        return itemPath;
      }
      let itemPath = queued;
      queued = undefined;
      if (itemPath === undefined) {
        const next = await request("next", `/annotate/${o.studyId}/next.data`, form({}), (r) =>
          dataRedirectTo(r, nextStep),
        );
        itemPath = next.headers.get("location") ?? "";
      }
      if (!taskPath.test(itemPath)) return null;
      // The item route's loader alone: the root's data (who is signed in) stays as it was (draft-revalidation.ts).
      await request("item", `${itemPath}.data?_routes=${ITEM_ROUTE}`, {}, (r) => r.status === 200);
      return itemPath;
    },
  };
}

const ITEM_ROUTE = encodeURIComponent("routes/annotate.$studyId.items.$itemId");

/** Sleeps `ms`, waking early (within a quarter second) once `stop()` is true. */
async function sleepUnless(ms: number, stop: () => boolean): Promise<void> {
  const until = performance.now() + ms;
  while (!stop() && performance.now() < until) await sleep(Math.min(250, until - performance.now()));
}

/** p-th percentile (0–100) of a list of numbers, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A table of count and p50/p95/p99/max latency per request kind, plus unexpected answers by status. */
export function latencyReport(samples: Sample[]): string {
  const kinds: RequestKind[] = ["login", "logout", "next", "item", "draft", "submit"];
  const lines = [
    `  ${"request".padEnd(10)} ${"count".padStart(7)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)}`,
  ];
  for (const kind of kinds) {
    const ms = samples.filter((s) => s.kind === kind).map((s) => s.ms);
    if (ms.length === 0) continue;
    const cell = (v: number) => v.toFixed(1).padStart(8);
    lines.push(
      `  ${kind.padEnd(10)} ${String(ms.length).padStart(7)} ${cell(percentile(ms, 50))} ${cell(percentile(ms, 95))} ${cell(percentile(ms, 99))} ${cell(Math.max(...ms))}`,
    );
  }
  const errors = new Map<string, number>();
  for (const s of samples)
    if (!s.ok) errors.set(`${s.kind} ${s.status}`, (errors.get(`${s.kind} ${s.status}`) ?? 0) + 1);
  lines.push(
    `  unexpected answers (status 0 = no answer, connection reset): ${errors.size === 0 ? "none" : [...errors].map(([k, n]) => `${k} × ${n}`).join(", ")}`,
  );
  return lines.join("\n");
}
