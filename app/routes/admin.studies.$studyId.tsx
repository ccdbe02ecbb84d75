import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { AgreementPanel, AlignmentTable, AnnotatorTable, FidelityTable, ProgressPanel, TrendChart } from "../components/dashboard/index.ts";
import { ChannelPanel } from "../components/dashboard/ChannelPanel.tsx";
import { ProlificPanel } from "../components/dashboard/ProlificPanel.tsx";
import { summarizeAgreement } from "../domain/validation/index.ts";
import { taskTypeName } from "../domain/tasks/registry.ts";
import { studyDashboard } from "../server/annotation/dashboard.server.ts";
import { orResponse } from "../server/http/responses.server.ts";
import { setStudyStatus } from "../server/annotation/studies.server.ts";
import { ServiceError } from "../server/http/errors.server.ts";
import { crowdLinkPath } from "../server/auth/crowd-link.server.ts";
import { studyChannelStats } from "../server/crowd/channel-stats.server.ts";
import { prolificStudyUrl, updateProlificSettings } from "../server/crowd/prolific.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.study.name ?? "Study"} · Dashboard · SoCRATES Studio` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]);
  const studyId = parseId(params.studyId, "study");
  const url = new URL(request.url);
  const excludeFlagged = url.searchParams.get("exclude") === "flagged";
  const db = getDb();
  const d = orResponse(() => studyDashboard(db, studyId, { excludeFlagged }));
  // A slim view: figures only, never the full rating matrix; excluded annotators by name.
  const named = <T extends { excluded: string[] }>(summary: T): T => ({ ...summary, excluded: summary.excluded.map((id) => d.names[id] ?? id) });
  const common = {
    study: d.study,
    names: d.names,
    progress: d.progress,
    gold: d.gold,
    flagged: d.flagged,
    excludeFlagged: d.excludeFlagged,
    channels: studyChannelStats(db, studyId, d.gold),
    prolificUrl: d.study.pool === "crowd" ? prolificStudyUrl(url.origin, studyId) : null,
  };
  if (d.kind === "ab-reactiveness") {
    return json({
      ...common,
      kind: "ab-reactiveness" as const,
      agreement: named(summarizeAgreement(d.ab)),
      agreementWithoutFlagged: d.abWithoutFlagged ? named(summarizeAgreement(d.abWithoutFlagged)) : null,
      // Fidelity follows the exclusion switch, like alignment does for consensus studies.
      fidelity: (({ fidelity, overall, unlabelledPairs }) => ({ fidelity, overall, unlabelledPairs }))(excludeFlagged && d.abWithoutFlagged ? d.abWithoutFlagged : d.ab),
      alignment: null,
      trend: null,
    });
  }
  return json({
    ...common,
    kind: "consensus-snippet" as const,
    agreement: named(summarizeAgreement(d.agreement)),
    agreementWithoutFlagged: d.agreementWithoutFlagged ? named(summarizeAgreement(d.agreementWithoutFlagged)) : null,
    fidelity: null,
    alignment: d.alignment,
    trend: d.trend,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request, ["admin"]);
  const studyId = parseId(params.studyId, "study");
  const form = await request.formData();
  const intent = form.get("intent");
  const db = getDb();
  const none = { link: null, error: null, prolific: null };
  if (intent === "close" || intent === "reopen") {
    orResponse(() => setStudyStatus(db, studyId, intent === "close" ? "closed" : "open"));
    return json(none);
  }
  if (intent === "link") {
    const workerId = String(form.get("workerId") ?? "").trim();
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(workerId)) return json({ ...none, error: "A worker id is 1–64 letters, digits, '_' or '-'" }, { status: 400 });
    return json({ ...none, link: new URL(crowdLinkPath(studyId, workerId), request.url).toString() });
  }
  if (intent === "prolific") {
    try {
      updateProlificSettings(db, studyId, { completionCode: form.get("completionCode"), itemsPerSession: form.get("itemsPerSession"), rewardUsd: form.get("rewardUsd") });
      return json({ ...none, prolific: { ok: true as const } });
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      if (err.status === 404) throw new Response(err.message, { status: 404, statusText: "Not Found" });
      return json({ ...none, prolific: { ok: false as const, message: err.message, problems: err.problems } }, { status: err.status });
    }
  }
  return json({ ...none, error: `Unknown action "${String(intent)}"` }, { status: 400 });
}

export default function StudyDashboard() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const base = `/admin/studies/${d.study.id}`;
  return (
    <>
      <header className="dash-header">
        <h1>{d.study.name}</h1>
        <p className="muted">
          {taskTypeName(d.study.type)} · {d.study.pool} pool · {d.study.labelsPerItem} labels per item ·{" "}
          <strong data-testid="study-status" className={`status-chip status-${d.study.status}`}>
            {d.study.status}
          </strong>
        </p>
        <div className="actions">
          <Form method="post" className="inline-form">
            <button type="submit" name="intent" value={d.study.status === "open" ? "close" : "reopen"} className="button-secondary">
              {d.study.status === "open" ? "Close study" : "Reopen study"}
            </button>
          </Form>
          <a href={`${base}/labels.csv`} download>
            Export labels (CSV)
          </a>
          <a href={`${base}/labels.jsonl`} download>
            Export labels (JSONL)
          </a>
        </div>
      </header>

      <ProgressPanel progress={d.progress} />

      <section className="dash-section">
        <h2>Agreement between annotators</h2>
        {d.flagged.length ? (
          <p className="notice notice-warning">
            {d.flagged.length} annotator{d.flagged.length > 1 ? "s are" : " is"} below the gold threshold ({Math.round(d.study.config.goldThreshold * 100)}%).{" "}
            {params.get("exclude") === "flagged" ? <Link to={base}>Include them again</Link> : <Link to={`${base}?exclude=flagged`}>Exclude them from {d.kind === "ab-reactiveness" ? "fidelity" : "alignment"}</Link>}
          </p>
        ) : null}
        <AgreementPanel agreement={d.agreement} withoutFlagged={d.agreementWithoutFlagged} />
      </section>

      {d.kind === "consensus-snippet" ? (
        <section className="dash-section">
          <h2>Does the evaluator agree with the experts?</h2>
          {d.alignment ? (
            <>
              <AlignmentTable table={d.alignment} />
              {d.trend ? <TrendChart trend={d.trend} /> : null}
            </>
          ) : (
            <p className="empty-state">Alignment is measured against expert labels; this is a {d.study.pool} study. Open the expert study on the same snippets to see it.</p>
          )}
        </section>
      ) : (
        <section className="dash-section">
          <h2>Persona fidelity per simulator backbone</h2>
          {d.fidelity ? <FidelityTable summary={d.fidelity} /> : null}
        </section>
      )}

      <section className="dash-section">
        <h2>Annotators</h2>
        <AnnotatorTable progress={d.progress} gold={d.gold} flagged={d.flagged} names={d.names} />
      </section>

      <section className="dash-section">
        <h2>Channels</h2>
        <ChannelPanel channels={d.channels} />
      </section>

      {d.study.pool === "crowd" ? (
        <section className="dash-section">
          <h2>Crowd links</h2>
          <p className="muted">
            A signed link lets one worker into this study. For Mechanical Turk, export a batch for the requester site with{" "}
            <code>npx socrates mturk export --study {d.study.id}</code>, or publish HITs that frame this app with{" "}
            <code>npx socrates mturk publish --study {d.study.id} --base-url https://…</code>; <code>docs/crowd.md</code> walks through both.
          </p>
          <Form method="post" className="inline-form link-form">
            <input type="hidden" name="intent" value="link" />
            <label>
              Worker id <input name="workerId" required pattern="[A-Za-z0-9_\-]{1,64}" />
            </label>{" "}
            <button type="submit">Make link</button>
          </Form>
          {result?.link ? (
            <p className="link-output">
              <code data-testid="crowd-link">{result.link}</code>
            </p>
          ) : null}
          {result?.error ? <p className="form-error">{result.error}</p> : null}
        </section>
      ) : null}

      {d.study.pool === "crowd" && d.prolificUrl ? (
        <section className="dash-section">
          <h2>Prolific</h2>
          <ProlificPanel settings={d.study.config.prolific ?? null} studyUrl={d.prolificUrl} result={result?.prolific ?? null} />
        </section>
      ) : null}
    </>
  );
}
