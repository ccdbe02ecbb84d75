/**
 * Whether a GET came from one of our own pages or was typed in (Fetch Metadata `Sec-Fetch-Site`:
 * `same-origin` or `none`), not from another site's link, image or script (`cross-site`,
 * `same-site` — another port or subdomain of this host). Pages that offer a write use it to decide
 * whether to carry it out on the user's behalf or wait for a click.
 */
export function navigatedFromHere(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  return site === "same-origin" || site === "none";
}
