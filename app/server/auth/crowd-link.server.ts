/**
 * Signed per-worker links: the signature binds a study to a worker id, so links cannot be forged or reused for another
 * study.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { appSecret } from "./secret.server.ts";

function sign(studyId: number, workerId: string, secret: string): string {
  return createHmac("sha256", secret).update(`crowd-link:${studyId}:${workerId}`).digest("base64url");
}

export function crowdLinkSignature(studyId: number, workerId: string, secret = appSecret()): string {
  return sign(studyId, workerId, secret);
}

export function verifyCrowdLink(studyId: number, workerId: string, signature: string, secret = appSecret()): boolean {
  const expected = Buffer.from(sign(studyId, workerId, secret));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function crowdLinkPath(studyId: number, workerId: string): string {
  const params = new URLSearchParams({
    study: String(studyId),
    worker: workerId,
    sig: crowdLinkSignature(studyId, workerId),
  });
  return `/crowd/start?${params}`;
}
