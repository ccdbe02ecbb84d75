/**
 * The ExternalQuestion page's signed token. MTurk frames the page cross-site, so the login
 * session's SameSite=Lax cookie never arrives: the token, signed with the app secret, binds the
 * assignment to its study, item, worker and submit address, and the submit is checked against it.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { appSecret } from "../../server/auth/secret.server.ts";
import { forbidden } from "../../server/http/errors.server.ts";
import { mturkId, type ExternalAssignment } from "./external-question-params.server.ts";

const tokenBodySchema = z.object({
  studyId: z.number().int().positive(),
  itemId: z.number().int().positive(),
  assignmentId: mturkId,
  hitId: mturkId,
  workerId: mturkId,
  turkSubmitTo: z.string(),
  /** When the page was served with this token: the item's first showing (the page itself writes nothing). */
  shownAt: z.string().datetime(),
});

/** A signed assignment: the page's fields and when the page showed the item. */
export type SignedAssignment = ExternalAssignment & { shownAt: string };

function mac(encoded: string, secret: string): string {
  return createHmac("sha256", secret).update(`mturk-external-question:v2:${encoded}`).digest("base64url");
}

/** A token the page sends back with the answer: the assignment's fields and the time it was shown, signed. */
export function signAssignment(a: ExternalAssignment & { shownAt?: string }, secret = appSecret()): string {
  const shownAt = a.shownAt ?? new Date().toISOString();
  const body: SignedAssignment = {
    studyId: a.studyId,
    itemId: a.itemId,
    assignmentId: a.assignmentId,
    hitId: a.hitId,
    workerId: a.workerId,
    turkSubmitTo: a.turkSubmitTo,
    shownAt,
  };
  const encoded = Buffer.from(JSON.stringify(body)).toString("base64url");
  return `${encoded}.${mac(encoded, secret)}`;
}

/** The assignment a token was signed for; a forged, altered or truncated token is refused (403). */
export function verifyAssignmentToken(token: string, secret = appSecret()): SignedAssignment {
  const refused = forbidden("This task page's token is not valid. Please open the task again from MTurk.");
  const [encoded, signature, ...rest] = token.split(".");
  if (!encoded || !signature || rest.length > 0) throw refused;
  const expected = Buffer.from(mac(encoded, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw refused;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    throw refused;
  }
  const parsed = tokenBodySchema.safeParse(body);
  if (!parsed.success) throw refused;
  return parsed.data;
}
