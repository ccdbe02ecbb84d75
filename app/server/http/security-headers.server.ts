/**
 * Security headers on every response, set centrally by path (so error pages, 404s, 403s and
 * 413s carry them too):
 *   - Content-Security-Policy: scripts only from this origin or inline with this response's
 *     nonce (`res.locals.cspNonce`, passed to Remix's <Scripts>), no plugins, no <base>, forms
 *     post only here, and no framing — except the MTurk task page, which MTurk's sites (and the
 *     MTURK_SUBMIT_ORIGINS stand-ins) may frame and whose hand-off form posts to them;
 *   - X-Frame-Options DENY (older browsers) except on that page; nosniff; Referrer-Policy.
 * Inline style attributes are allowed (style-src 'unsafe-inline'); inline scripts, on*= handlers
 * and javascript: URLs are not.
 */
import type { NextFunction, Request, Response } from "express";
import { randomBytes } from "node:crypto";
import {
  allowedSubmitOrigins,
  frameAncestorsPolicy,
} from "../../crowd-channels/mturk/external-question-params.server.ts";

/** The ExternalQuestion page MTurk frames (its document, its data requests, with or without a slash). */
export const isMturkFramePath = (path: string) => /^\/mturk\/task(\/|\.data)?$/.test(path);

export interface PolicyOptions {
  /** The MTurk page's frame-ancestors directive and the origins its hand-off form posts to. */
  mturkFrameAncestors: string;
  mturkSubmitOrigins: readonly string[];
  /** `npm run dev` only: Vite's hot-reload socket lives on its own port. */
  devServer?: boolean;
}

export function policyOptions(env: Record<string, string | undefined> = process.env, devServer = false): PolicyOptions {
  return { mturkFrameAncestors: frameAncestorsPolicy(env), mturkSubmitOrigins: allowedSubmitOrigins(env), devServer };
}

export function contentSecurityPolicy(path: string, nonce: string, options: PolicyOptions): string {
  const framed = isMturkFramePath(path);
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    options.devServer ? "connect-src 'self' ws:" : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${["'self'", ...(framed ? options.mturkSubmitOrigins : [])].join(" ")}`,
    framed ? options.mturkFrameAncestors : "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(options: PolicyOptions = policyOptions()) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.set({
      "Content-Security-Policy": contentSecurityPolicy(req.path, nonce, options),
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    });
    if (!isMturkFramePath(req.path)) res.set("X-Frame-Options", "DENY");
    next();
  };
}
