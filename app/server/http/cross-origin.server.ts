/**
 * CSRF protection for every state-changing request, at the server, so no route can forget it.
 * The rule follows the idea of Go 1.25's http.CrossOriginProtection (our own code):
 *   - GET, HEAD and OPTIONS pass (they change nothing here);
 *   - a browser that sends Sec-Fetch-Site (all current ones) passes only with `same-origin` or
 *     `none` (typed address, bookmark);
 *   - otherwise an Origin header must name this server: the same host:port as the Host header
 *     (scheme aside), or APP_ORIGIN when a proxy rewrites Host;
 *   - a request with neither header is not from a browser (curl, node fetch, the CLI, the bench)
 *     and passes: CSRF needs a victim's browser, which always sends one of them on a POST.
 * The session cookie stays SameSite=Lax as a second line.
 */
import type { NextFunction, Request, Response } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface RequestFacts {
  method: string;
  secFetchSite: string | undefined;
  origin: string | undefined;
  host: string | undefined;
}

/** Why the request is refused as cross-origin, or null when it may go on. */
export function crossOriginRefusal(r: RequestFacts, appOrigin: string | null): string | null {
  if (SAFE_METHODS.has(r.method.toUpperCase())) return null;
  if (r.secFetchSite) {
    if (r.secFetchSite === "same-origin" || r.secFetchSite === "none") return null;
    if (r.origin !== undefined && r.origin === appOrigin) return null;
    return `the browser reports it as ${r.secFetchSite}`;
  }
  if (r.origin === undefined) return null;
  if (appOrigin !== null && r.origin === appOrigin) return null;
  let host: string | null = null;
  try {
    host = new URL(r.origin).host;
  } catch {
    // "null" and other unparsable origins are refused below
  }
  if (host !== null && r.host !== undefined && host === r.host.toLowerCase()) return null;
  return `its Origin ${r.origin} is not this server (${r.host ?? "no Host header"})`;
}

export function crossOriginProtection(appOrigin: string | null) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const refusal = crossOriginRefusal(
      { method: req.method, secFetchSite: req.get("sec-fetch-site"), origin: req.get("origin"), host: req.get("host") },
      appOrigin,
    );
    if (refusal === null) return next();
    res
      .status(403)
      .set({ "Content-Type": "text/plain; charset=utf-8", Connection: "close" })
      .send(`Cross-origin request refused: ${refusal}. Forms of SoCRATES Studio must be sent from its own pages.`);
  };
}
