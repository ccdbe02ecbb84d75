import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { type ClientLoaderFunctionArgs, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { AgreementSection } from "../components/admin/AgreementSection.tsx";
import { StudyHeader } from "../components/admin/StudyHeader.tsx";
import {
  AnnotatorTable,
  DashboardChart,
  FastLabelsPanel,
  LabelStatusPanel,
  ProgressPanel,
  TypeFiguresSection,
} from "../components/dashboard/index.ts";
import { ChannelPanel } from "../components/dashboard/ChannelPanel.tsx";
import { FlagsPanel } from "../components/dashboard/FlagsPanel.tsx";
import { LabelCommentsPanel } from "../components/dashboard/LabelCommentsPanel.tsx";
import { ChannelPanels } from "../crowd-channels/ChannelPanels.tsx";
import { dashboardPage, type DashboardPage } from "../server/annotation/dashboard-cache.server.ts";
import { chartTableMarkup } from "../components/charts/chart-table-markup.server.ts";
import { chartsWithoutDrawings } from "../server/annotation/dashboard-drawings.server.ts";
import { dashboardOptions } from "../server/annotation/dashboard-view.server.ts";
import type { FramedChart } from "../components/charts/ChartFrame.tsx";
import { alignmentSummary } from "../domain/validation/alignment-summary.ts";
import { TASK_TYPES } from "../task-types/registry.ts";
import {
  actionResult,
  asJsonData,
  jsonDataOnce,
  orResponse,
  orResponseWrite,
} from "../server/http/responses.server.ts";
import { studyLock } from "../server/db-transaction.server.ts";
import { resolveStudyFlag, studyFlagsPanel } from "../server/annotation/dashboard-flags.server.ts";
import {
  setCountSurplus,
  setMinSecondsOnTask,
  setTargetHalfWidth,
} from "../server/annotation/dashboard-settings.server.ts";
import { getStudy, setStudyStatus } from "../server/annotation/studies.server.ts";
import { crowdDashboardAction, NO_ACTION_DATA } from "../server/crowd/dashboard-actions.server.ts";
import { channelPanelData } from "../crowd-channels/registry.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";
import { readForm } from "../server/http/request-body.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.study.name ?? "Study"} · Dashboard · SoCRATES Studio` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]);
  const studyId = parseId(params.studyId, "study");
  const url = new URL(request.url);
  const db = await getDb();
  // Cached per study and parameters until the study's data changes (dashboard-cache.server.ts).
  const page = await orResponse(() => dashboardPage(db, studyId, dashboardOptions(url)));
  const view = page.view;
  const channelPanels = view.study.pool === "crowd" ? await channelPanelData(db, view.study, url.origin) : null;
  const flags = await studyFlagsPanel(db, studyId, { showResolved: url.searchParams.get("flags") === "all" });
  // The drawings stay out of the data sent: the document has them in its HTML, a navigation fetches them.
  const charts: Partial<Record<string, FramedChart>> = chartsWithoutDrawings(
    await page.charts,
    chartTableMarkup,
    chartsRoute(studyId, url),
  );
  const perRequest = asJsonData({ channels: page.channels, channelPanels, flags, labelComments: page.labelComments });
  return { ...shownView(view), charts, ...perRequest };
}

/**
 * The view as the page gets it, in JSON form: the trend only as a server-drawn chart and the alignment's figures
 * without its per-unit values (those stay on the server). A cached view (and its charts) is the same object until the
 * study's data changes, so this is made once per view, not per request (it was most of a cached page's time).
 */
const shownView = jsonDataOnce((view: DashboardPage["view"]) => {
  const { trend: _trend, alignment, ...rest } = view;
  return { ...rest, alignment: alignment ? alignmentSummary(alignment) : null };
});

/** The charts route's address for this page's view (only the parameters that change the charts). */
function chartsRoute(studyId: number | string, url: URL): string {
  const query = new URLSearchParams([...url.searchParams].filter(([k]) => k === "exclude" || k === "fast"));
  return `/admin/studies/${studyId}/charts${query.size ? `?${query}` : ""}`;
}

/** A client navigation's data: the server's page data with the chart drawings fetched beside it. */
export async function clientLoader({ request, params, serverLoader }: ClientLoaderFunctionArgs) {
  const drawingsUrl = chartsRoute(params.studyId ?? "", new URL(request.url));
  // A failed fetch waits for the page data, so a redirect (to the login) or a 404 from the loader comes first.
  const [data, drawings] = await Promise.all([
    serverLoader<typeof loader>(),
    fetch(drawingsUrl, { signal: request.signal })
      .then(async (res) =>
        res.ok ? ((await res.json()) as Record<string, Pick<FramedChart, "svg" | "narrowSvg" | "tableHtml">>) : null,
      )
      .catch(() => null),
  ]);
  if (!drawings) throw new Response("The dashboard's charts could not be loaded", { status: 502 });
  const charts = Object.fromEntries(
    Object.entries(data.charts).map(([k, c]) => [k, c && { ...c, ...drawings[k] }]),
  ) as typeof data.charts;
  return { ...data, charts };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request, ["admin"]);
  const studyId = parseId(params.studyId, "study");
  const form = await readForm(request);
  const intent = String(form.get("intent"));
  const db = await getDb();
  // Every intent is for an existing study: an unknown id is a 404 before anything else.
  await orResponse(() => getStudy(db, studyId));
  if (intent === "close" || intent === "reopen") {
    await orResponseWrite(async (db) => await setStudyStatus(db, studyId, intent === "close" ? "closed" : "open"), {
      db,
      lock: studyLock(studyId),
    });
    return json(NO_ACTION_DATA);
  }
  if (intent === "resolve-flag") {
    return actionResult(
      async (db) => {
        await resolveStudyFlag(db, studyId, form.get("flagId"));
        return json(NO_ACTION_DATA);
      },
      { db },
    );
  }
  if (intent === "count-surplus") {
    await orResponseWrite(async (db) => await setCountSurplus(db, studyId, form.get("countSurplus")), { db });
    return json(NO_ACTION_DATA);
  }
  if (intent === "target-half-width") {
    return actionResult(
      async (db) => {
        await setTargetHalfWidth(db, studyId, form.get("targetHalfWidth"));
        return json(NO_ACTION_DATA);
      },
      { db },
    );
  }
  if (intent === "min-seconds") {
    return actionResult(
      async (db) => {
        await setMinSecondsOnTask(db, studyId, form.get("minSecondsOnTask"));
        return json(NO_ACTION_DATA);
      },
      { db },
    );
  }
  // Crowd actions may release places or change who may take one: they queue with the study's allocation.
  const reply = await orResponseWrite(
    async (db) => await crowdDashboardAction(db, studyId, intent, form, request.url),
    {
      db,
      lock: studyLock(studyId),
    },
  );
  return json(reply.data, { status: reply.status });
}

export default function StudyDashboard() {
  const d = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  // A refused flag resolution answers an ActionFailure; every other intent the dashboard's action data.
  const result = reply && "panel" in reply ? reply : null;
  const failure = reply && "ok" in reply && reply.ok === false ? reply : null;
  const [params] = useSearchParams();
  const referenceHref = (backbone: string) =>
    `?${new URLSearchParams([...params].filter(([k]) => k !== "reference").concat([["reference", backbone]]))}`;
  const fastToggleHref = `?${new URLSearchParams([...params].filter(([k]) => k !== "fast").concat(d.excludeFast ? [] : [["fast", "exclude"]]))}`;
  return (
    <>
      <StudyHeader study={d.study} />
      <ProgressPanel progress={d.progress} />
      <AgreementSection
        studyId={d.study.id}
        kind={d.kind}
        flaggedCount={d.flagged.length}
        goldThreshold={d.study.config.goldThreshold}
        excluding={params.get("exclude") === "flagged"}
        agreement={d.agreement}
        withoutFlagged={d.agreementWithoutFlagged}
        fastLeftOut={
          d.excludeFast
            ? { count: d.fast.labels.length, minSeconds: d.fast.minSeconds, includeHref: fastToggleHref }
            : null
        }
      />

      <TypeFiguresSection
        kind={d.kind}
        pool={d.study.pool}
        alignment={d.alignment}
        charts={d.charts}
        comparison={d.comparison}
        referenceHref={referenceHref}
        fidelity={d.fidelity}
        stopping={"stopping" in d ? d.stopping : null}
      />

      <section className="dash-section">
        <h2>Annotators</h2>
        <AnnotatorTable progress={d.progress} gold={d.gold} flagged={d.flagged} names={d.names} fast={d.fast} />
        <DashboardChart
          chart={d.charts.gold}
          testId="gold-chart"
          fileName={`study-${d.study.id}-gold-accuracy`}
          label="Gold accuracy per annotator: a dot per annotator, a bar for its Wilson 95% interval"
        />
        <FastLabelsPanel
          fast={d.fast}
          excluding={d.excludeFast}
          toggleHref={fastToggleHref}
          excludedFrom={`agreement and ${TASK_TYPES[d.kind].dashboard.flaggedExcludedFrom}`}
          names={d.names}
        />
      </section>

      <FlagsPanel data={d.flags} error={failure?.message ?? null} />
      <LabelCommentsPanel studyId={d.study.id} data={d.labelComments} />

      <section className="dash-section" data-testid="label-status">
        <h2>Label status</h2>
        <LabelStatusPanel
          counts={d.labelStatus}
          labelsPerItem={d.study.labelsPerItem}
          countSurplus={d.study.config.countSurplus}
        />
      </section>

      <section className="dash-section">
        <h2>Channels</h2>
        <ChannelPanel channels={d.channels} />
      </section>

      {d.channelPanels ? <ChannelPanels studyId={d.study.id} panels={d.channelPanels} reply={result} /> : null}
    </>
  );
}
