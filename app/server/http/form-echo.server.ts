/**
 * A refused form comes back with what was typed: the action's failure body gets the posted
 * values (files left out; they cannot be refilled), so the page re-renders every field as it was,
 * with or without JavaScript.
 */
import { json } from "@remix-run/node";

export type SubmittedValues = Record<string, string | string[]>;

/** The form's text fields; a name posted more than once (checkboxes) keeps all its values. */
export function submittedValues(form: FormData): SubmittedValues {
  const values: SubmittedValues = {};
  for (const name of new Set(form.keys())) {
    const all = form.getAll(name).filter((v): v is string => typeof v === "string");
    if (all.length) values[name] = all.length === 1 ? all[0] : all;
  }
  return values;
}

/** `response` as it is when it succeeded (a redirect, 2xx); a failure's JSON body with the posted values added. */
export async function echoFormOnFailure(response: Response, form: FormData): Promise<Response> {
  if (response.status < 400 || !response.headers.get("content-type")?.includes("json")) return response;
  const body = (await response.json()) as Record<string, unknown>;
  const retryAfter = response.headers.get("Retry-After");
  return json(
    { ...body, values: submittedValues(form) },
    { status: response.status, headers: retryAfter ? { "Retry-After": retryAfter } : undefined },
  );
}
