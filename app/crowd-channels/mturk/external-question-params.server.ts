/**
 * MTurk ExternalQuestion entry: the query parameters MTurk appends to `/mturk/task?study=…&item=…`
 * (`assignmentId`, `hitId`, `workerId`, `turkSubmitTo`), checked against the allowed submit
 * addresses, and the frame-ancestors policy that lets MTurk frame the page.
 */
import { z } from "zod";
import { type ServiceError, badInput, zodProblems } from "../../server/http/errors.server.ts";
import { plainProblem } from "../../domain/crowd/plain-problems.ts";

/** The assignment id MTurk sends while a worker only previews a HIT. */
export const PREVIEW_ASSIGNMENT_ID = "ASSIGNMENT_ID_NOT_AVAILABLE";

/** MTurk's production and sandbox worker sites: the only places a worker's answer is posted to by default. */
export const MTURK_SUBMIT_ORIGINS: readonly string[] = ["https://www.mturk.com", "https://workersandbox.mturk.com"];

/** Sites allowed to frame the task page (the CSP frame-ancestors sources). */
const MTURK_FRAME_SOURCES = ["https://*.mturk.com"];

/**
 * The submit origins this app posts answers to: MTurk's two sites plus any listed in
 * MTURK_SUBMIT_ORIGINS (comma-separated origins, e.g. a local stand-in for tests).
 */
export function allowedSubmitOrigins(env: Record<string, string | undefined> = process.env): string[] {
  const extra = (env.MTURK_SUBMIT_ORIGINS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const value of extra) {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.origin !== value.replace(/\/$/, "")) {
      throw new Error(`MTURK_SUBMIT_ORIGINS: "${value}" is not an origin like https://host[:port] (no path)`);
    }
  }
  return [...MTURK_SUBMIT_ORIGINS, ...extra.map((v) => v.replace(/\/$/, ""))];
}

/**
 * The CSP frame-ancestors directive for the task page (set centrally by the server's security
 * headers): MTurk (and the configured stand-ins) may frame it, nobody else, not even this site.
 */
export function frameAncestorsPolicy(env: Record<string, string | undefined> = process.env): string {
  const extra = allowedSubmitOrigins(env).filter((o) => !MTURK_SUBMIT_ORIGINS.includes(o));
  return `frame-ancestors ${[...MTURK_FRAME_SOURCES, ...extra].join(" ")}`;
}

/**
 * The MTurk environment an assignment comes from, by where its answer goes: MTurk's production
 * site is production; its sandbox and any configured stand-in (tests) are the sandbox. A HIT is
 * accepted only from the environment `mturk publish` created it in.
 */
export function environmentOfSubmitOrigin(turkSubmitTo: string): "sandbox" | "production" {
  return turkSubmitTo === MTURK_SUBMIT_ORIGINS[0] ? "production" : "sandbox";
}

/** The origin of an allowed `turkSubmitTo` value, or null when it is not one. */
export function submitOriginOf(turkSubmitTo: string, allowed: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(turkSubmitTo);
  } catch {
    return null;
  }
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== ""))
    return null;
  return allowed.includes(url.origin) ? url.origin : null;
}

const positiveId = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, "a positive whole number")
  .transform(Number);
/** MTurk ids are upper-case letters and digits; a little wider here, never anything that needs escaping. */
export const mturkId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "1–64 letters, digits, '_' or '-'");

const paramsSchema = z.object({
  study: positiveId,
  item: positiveId,
  assignmentId: mturkId.or(z.literal(PREVIEW_ASSIGNMENT_ID)),
  hitId: mturkId.optional(),
  workerId: mturkId.optional(),
  turkSubmitTo: z.string().max(200).optional(),
});

/** One accepted assignment: everything the signed token binds. `turkSubmitTo` is an allowed origin. */
export interface ExternalAssignment {
  studyId: number;
  itemId: number;
  assignmentId: string;
  hitId: string;
  workerId: string;
  turkSubmitTo: string;
}

export type ExternalQuestionRequest =
  | { mode: "preview"; studyId: number; itemId: number; hitId?: string }
  | ({ mode: "work" } & ExternalAssignment);

function invalidLink(problems: { path: string; message: string }[]): ServiceError {
  // A loader's error page shows only the message, and a worker reads it: each problem in words, not as a parameter.
  return badInput(
    `The task link is not valid. ${problems.map(plainProblem).join(" ")} Please open the task from Mechanical Turk again.`,
    problems,
  );
}

/** Reads MTurk's query parameters. A preview needs only study and item; an accepted assignment needs all of them. */
export function parseExternalQuestionParams(
  params: URLSearchParams,
  allowed: readonly string[] = allowedSubmitOrigins(),
): ExternalQuestionRequest {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(paramsSchema.shape)) {
    const value = params.get(key);
    if (value !== null && value !== "") raw[key] = value.trim();
  }
  const parsed = paramsSchema.safeParse(raw);
  if (!parsed.success) throw invalidLink(zodProblems(parsed.error, "query"));
  const p = parsed.data;
  // A present submit address is checked even in preview, so a bad HIT shows up before anyone works on it.
  const origin = p.turkSubmitTo === undefined ? null : submitOriginOf(p.turkSubmitTo, allowed);
  if (p.turkSubmitTo !== undefined && origin === null) {
    throw invalidLink([
      {
        path: "turkSubmitTo",
        message: `"${p.turkSubmitTo}" is not an MTurk submit address (allowed: ${allowed.join(", ")})`,
      },
    ]);
  }
  if (p.assignmentId === PREVIEW_ASSIGNMENT_ID)
    return { mode: "preview", studyId: p.study, itemId: p.item, ...(p.hitId === undefined ? {} : { hitId: p.hitId }) };
  const missing = (["hitId", "workerId", "turkSubmitTo"] as const).filter((k) => p[k] === undefined);
  if (missing.length)
    throw invalidLink(missing.map((k) => ({ path: k, message: "required once the HIT is accepted" })));
  return {
    mode: "work",
    studyId: p.study,
    itemId: p.item,
    assignmentId: p.assignmentId,
    hitId: p.hitId!,
    workerId: p.workerId!,
    turkSubmitTo: origin!,
  };
}
