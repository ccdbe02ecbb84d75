import type { LoaderFunctionArgs } from "@remix-run/node";
import { orResponse } from "../server/http/responses.server.ts";
import { labelsJsonl } from "../server/annotation/label-export.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]);
  const studyId = parseId(params.studyId, "study");
  const body = await orResponse(async () => await labelsJsonl(await getDb(), studyId));
  return new Response(body, {
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="study-${studyId}-labels.jsonl"`,
    },
  });
}
