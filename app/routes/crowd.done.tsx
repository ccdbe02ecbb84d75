import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { studyForWorker } from "../server/annotation/access.server.ts";
import { orResponse } from "../server/http/responses.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { channelOfWorker } from "../crowd-channels/registry.server.ts";
import { CHANNEL_COMPONENTS } from "../crowd-channels/registry.tsx";
import { MAX_QUALIFICATION_ATTEMPTS } from "../server/crowd/qualification.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export const meta: MetaFunction = () => [{ title: "Thank you · SoCRATES Studio" }];

/**
 * The end of a session on a channel with a completion code (Prolific): the channel's end page
 * (app/crowd-channels/registry.tsx) with the code and the way back, or — after failing the reading
 * test — a request to return the study. Anyone whose session goes on is sent to the next page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["crowd"]);
  const studyId = parseId(new URL(request.url).searchParams.get("study") ?? undefined, "study");
  // Channels without a completion code end on the usual page.
  const channel = channelOfWorker(user.channel);
  const endView = channel?.completion.endView;
  if (!channel || !endView) throw redirect(`/annotate/${studyId}/next`);
  const db = await getDb();
  const study = await orResponse(() => studyForWorker(db, studyId, user));
  // Read-only (issue 29): a session still going is completed, or given its next item, by the next page's POST.
  const step = await orResponse(() => endView(db, studyId, user.id));
  if (step === null) throw redirect(`/annotate/${studyId}/next`);
  if (step.kind === "not-qualified") {
    const attempts = MAX_QUALIFICATION_ATTEMPTS;
    return json({ channel: channel.id, state: "not-qualified" as const, name: study.name, attempts });
  }
  const { code, url, labels } = step;
  return json({ channel: channel.id, state: "complete" as const, name: study.name, code, url, labels });
}

export default function CrowdDone() {
  const { channel, ...data } = useLoaderData<typeof loader>();
  const EndPage = CHANNEL_COMPONENTS[channel]?.endPage;
  if (!EndPage) throw new Error(`The crowd channel "${channel}" has an end view but no end page`);
  return <EndPage data={data} />;
}
