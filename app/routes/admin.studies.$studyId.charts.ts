/**
 * The dashboard's chart drawings for the same address's view options, as JSON by chart key: what a client navigation
 * to the dashboard fetches beside the page data, which leaves them out (dashboard-drawings.server.ts). With
 * `?download=<key>.<csv|svg>`, one chart's CSV or SVG download instead.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { dashboardPage } from "../server/annotation/dashboard-cache.server.ts";
import { chartTableMarkup } from "../components/charts/chart-table-markup.server.ts";
import { chartDownload, chartDrawingsJson } from "../server/annotation/dashboard-drawings.server.ts";
import { dashboardOptions } from "../server/annotation/dashboard-view.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { orResponse } from "../server/http/responses.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]);
  const studyId = parseId(params.studyId, "study");
  const db = await getDb();
  const url = new URL(request.url);
  const page = await orResponse(() => dashboardPage(db, studyId, dashboardOptions(url)));
  const file = url.searchParams.get("download");
  if (file !== null) {
    const download = chartDownload(await page.charts, file);
    if (!download) throw new Response(`No chart download ${file} on this dashboard`, { status: 404 });
    // No file name here: the link's `download` attribute names the file.
    const headers = { "Content-Type": download.type, "Content-Disposition": "attachment", "Cache-Control": "no-store" };
    return new Response(download.body, { headers });
  }
  return new Response(chartDrawingsJson(await page.charts, chartTableMarkup), {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}
