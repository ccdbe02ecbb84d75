import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { annotatorHome } from "../server/annotation/tasks.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { taskTypeName } from "../task-types/registry.ts";
import { getDb } from "../server/db.server.ts";

export const meta: MetaFunction = () => [{ title: "My tasks · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  return json(await annotatorHome(await getDb(), user));
}

export default function MyTasks() {
  const { name, studies, mustQualify } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>My tasks</h1>
      <p className="muted">Signed in as {name}.</p>
      {mustQualify ? (
        <section className="notice notice-action">
          <p>Before your first task, please take the short reading test.</p>
          <Link to="/crowd/qualify" className="button">
            Take the reading test
          </Link>
        </section>
      ) : null}
      {studies.length === 0 ? (
        <section className="empty-state">
          <h2>Nothing to label right now</h2>
          <p>No open study is assigned to your pool. When a researcher opens one, it appears here.</p>
        </section>
      ) : (
        <ul className="study-list">
          {studies.map((s) => (
            <li key={s.id} className="card task-card">
              <h2>{s.name}</h2>
              <p className="muted task-card-type">{taskTypeName(s.type)}</p>
              <div
                className="progress"
                role="progressbar"
                aria-label={`${s.name}: items labelled`}
                aria-valuemin={0}
                aria-valuemax={s.total}
                aria-valuenow={s.done}
                aria-valuetext={`${s.done} of ${s.total} items labelled`}
              >
                <div className="progress-fill" style={{ width: `${s.total ? (100 * s.done) / s.total : 0}%` }} />
              </div>
              <p className="task-card-count">
                {s.done} of {s.total} items labelled
              </p>
              <p className="actions">
                {mustQualify ? null : s.hasWork ? (
                  <Link to={`/annotate/${s.id}/next`} className="button">
                    {s.done > 0 ? "Continue" : "Start"}
                  </Link>
                ) : (
                  <span className="muted">Nothing left for you here: every item has its labels.</span>
                )}{" "}
                {s.done > 0 ? <Link to={`/annotate/${s.id}/mine`}>Review my labels</Link> : null}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
