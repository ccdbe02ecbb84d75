import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { actionResult, type ActionFailure } from "../server/http/responses.server.ts";
import { createAbStudy, createConsensusStudy, listStudies } from "../server/annotation/studies.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { taskTypeName } from "../domain/tasks/registry.ts";
import { getDb } from "../server/db.server.ts";
import { defaultGuidelines } from "../server/templates.server.ts";
import { BundleImportError, importBundleFiles } from "../server/bundle-store.server.ts";

/** The A/B pair ids a (just imported, hence valid) bundle carries. */
function pairIdsInBundle(text: string): string[] {
  const parsed = JSON.parse(text) as { ab_pairs?: { id: string }[] };
  return (parsed.ab_pairs ?? []).map((p) => p.id);
}

export const meta: MetaFunction = () => [{ title: "Studies · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]);
  const db = getDb();
  const trajectories = db.$client.prepare(`SELECT count(DISTINCT s.run_id) AS n FROM snippets s WHERE EXISTS (SELECT 1 FROM evaluations e WHERE e.run_id = s.run_id)`).get() as { n: number };
  const pairs = db.$client.prepare(`SELECT count(*) AS n FROM ab_pairs`).get() as { n: number };
  const progress = db.$client
    .prepare(
      `SELECT i.study_id AS studyId, count(DISTINCT l.id) AS labels FROM study_items i LEFT JOIN labels l ON l.study_item_id = i.id GROUP BY i.study_id`,
    )
    .all() as { studyId: number; labels: number }[];
  const labels = new Map(progress.map((p) => [p.studyId, p.labels]));
  return json({
    studies: listStudies(db).map((s) => ({ ...s, labels: labels.get(s.id) ?? 0 })),
    available: { trajectories: trajectories.n, pairs: pairs.n },
    defaultGuidelines: defaultGuidelines(),
  });
}

const num = (form: FormData, name: string): number | undefined => {
  const v = form.get(name);
  return v === null || v === "" ? undefined : Number(v);
};

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request, ["admin"]);
  const form = await request.formData();
  const db = getDb();
  const type = form.get("type");
  const common = {
    name: String(form.get("name") ?? ""),
    pool: String(form.get("pool") ?? "") as "expert" | "crowd",
    labelsPerItem: num(form, "labelsPerItem"),
    guidelines: String(form.get("guidelines") ?? ""),
    config: {
      ...(num(form, "seed") !== undefined ? { seed: num(form, "seed") } : {}),
      ...(num(form, "goldRate") !== undefined ? { goldRate: num(form, "goldRate") } : {}),
      ...(num(form, "leaseMinutes") !== undefined ? { leaseMinutes: num(form, "leaseMinutes") } : {}),
    },
  };
  return actionResult(async () => {
    let id: number;
    if (type === "consensus-snippet") {
      id = createConsensusStudy(db, { ...common, trajectories: num(form, "trajectories") ?? Number.NaN, goldFromStudyId: num(form, "goldFromStudyId") });
    } else if (type === "ab-reactiveness") {
      let pairIds = String(form.get("pairIds") ?? "")
        .split(/[\s,]+/)
        .filter(Boolean);
      // A bundle uploaded with the form is imported first (all or nothing); its pairs become the items.
      const upload = form.get("bundle");
      if (upload instanceof File && upload.size > 0) {
        const text = await upload.text();
        try {
          importBundleFiles(db, [{ file: upload.name || "upload.json", text }]);
        } catch (err) {
          if (err instanceof BundleImportError) {
            return json<ActionFailure>({ ok: false, message: `The bundle was not imported (${err.problems.length} problems)`, problems: err.problems.slice(0, 20).map((p) => ({ path: `${p.file}: ${p.path}`, message: p.message })) }, { status: 400 });
          }
          throw err;
        }
        const bundlePairs = pairIdsInBundle(text);
        if (bundlePairs.length === 0) return json<ActionFailure>({ ok: false, message: "The uploaded bundle has no ab_pairs", problems: [{ path: "bundle", message: "no A/B pairs" }] }, { status: 400 });
        pairIds = [...new Set([...pairIds, ...bundlePairs])];
      }
      id = createAbStudy(db, { ...common, pairIds: pairIds.length ? pairIds : undefined });
    } else {
      return json<ActionFailure>({ ok: false, message: "Choose a study type", problems: [{ path: "type", message: "required" }] }, { status: 400 });
    }
    return redirect(`/admin/studies/${id}`);
  });
}

export default function Studies() {
  const { studies, available, defaultGuidelines } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as ActionFailure | undefined;
  const busy = useNavigation().state !== "idle";
  const [type, setType] = useState<"consensus-snippet" | "ab-reactiveness">("consensus-snippet");
  const [pool, setPool] = useState<"expert" | "crowd">("expert");
  const problem = (path: string) => failure?.problems.find((p) => p.path === path)?.message;
  return (
    <>
      <h1>Studies</h1>
      {studies.length === 0 ? (
        <section className="empty-state">
          <p>No study yet. Create one below: a snippet consensus study samples trajectories and takes all their snippets; an A/B study takes reactiveness pairs.</p>
        </section>
      ) : (
        <table className="data-table" data-testid="study-list">
          <thead>
            <tr>
              <th>Study</th>
              <th>Type</th>
              <th>Pool</th>
              <th className="num">Items</th>
              <th className="num">Labels per item</th>
              <th className="num">Labels</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {studies.map((s) => (
              <tr key={s.id}>
                <td>
                  <Link to={`/admin/studies/${s.id}`}>{s.name}</Link>
                </td>
                <td>{taskTypeName(s.type)}</td>
                <td>{s.pool}</td>
                <td className="num">{s.items}</td>
                <td className="num">{s.labelsPerItem}</td>
                <td className="num">{s.labels}</td>
                <td>
                  <span className={`status-chip status-${s.status}`}>{s.status}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>New study</h2>
      <Form method="post" encType="multipart/form-data" className="stack-form wide" key={studies.length}>
        <fieldset className="inline-choices">
          <legend>Type</legend>
          <label>
            <input type="radio" name="type" value="consensus-snippet" checked={type === "consensus-snippet"} onChange={() => setType("consensus-snippet")} /> Snippet
            consensus ({available.trajectories} evaluated trajectories available)
          </label>
          <label>
            <input type="radio" name="type" value="ab-reactiveness" checked={type === "ab-reactiveness"} onChange={() => setType("ab-reactiveness")} /> A/B
            reactiveness ({available.pairs} pairs available)
          </label>
        </fieldset>
        <label>
          Name <input name="name" required />
          {problem("name") ? <span className="field-error">{problem("name")}</span> : null}
        </label>
        <fieldset className="inline-choices">
          <legend>Pool</legend>
          <label>
            <input type="radio" name="pool" value="expert" checked={pool === "expert"} onChange={() => setPool("expert")} /> Expert
          </label>
          <label>
            <input type="radio" name="pool" value="crowd" checked={pool === "crowd"} onChange={() => setPool("crowd")} /> Crowd
          </label>
        </fieldset>
        <label>
          Labels per item <input name="labelsPerItem" type="number" min={1} max={20} placeholder={pool === "expert" ? "2" : "3"} />
        </label>
        {type === "consensus-snippet" ? (
          <>
            <label>
              Trajectories to sample (stratified over domain × mediator) <input name="trajectories" type="number" min={1} max={available.trajectories} required />
              {problem("trajectories") ? <span className="field-error">{problem("trajectories")}</span> : null}
            </label>
            <label>
              Gold snippets from study (id, optional) <input name="goldFromStudyId" type="number" min={1} />
            </label>
          </>
        ) : (
          <>
            <label>
              Import pairs from a bundle (JSON with <code>ab_pairs</code>, optional) <input name="bundle" type="file" accept=".json,application/json" />
              {problem("bundle") ? <span className="field-error">{problem("bundle")}</span> : null}
            </label>
            <label>
              Pair ids (blank = the uploaded bundle's pairs, or all stored pairs) <textarea name="pairIds" rows={2} />
              {problem("pairIds") ? <span className="field-error">{problem("pairIds")}</span> : null}
            </label>
          </>
        )}
        <label>
          Gold rate (gold items per regular item) <input name="goldRate" type="number" step="0.05" min={0} max={1} placeholder="0" />
        </label>
        <label>
          Sampling seed <input name="seed" type="number" placeholder="1" />
        </label>
        <label>
          Lease (minutes) <input name="leaseMinutes" type="number" min={1} placeholder="30" />
        </label>
        <label>
          Guidelines (Markdown)
          <textarea name="guidelines" rows={12} key={type} defaultValue={defaultGuidelines[type]} className="code-input" />
        </label>
        {failure ? (
          <p className="form-error" role="alert">
            {failure.message}
            {failure.problems.length ? `: ${failure.problems.map((p) => `${p.path} ${p.message}`).join("; ")}` : ""}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          Create study
        </button>
      </Form>
    </>
  );
}
