/**
 * Timestamps for pages, formatted the same on the server and in the browser (UTC, minute
 * precision), so a hydrated page never disagrees with its server render.
 */
export function formatUtc(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
