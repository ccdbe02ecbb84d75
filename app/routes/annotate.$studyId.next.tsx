import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { orResponse, orResponseWrite } from "../server/http/responses.server.ts";
import { studyLock } from "../server/db-transaction.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { currentStep, takeNextStep } from "../server/crowd/next-step.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";
import { navigatedFromHere } from "../server/http/fetch-site.server.ts";

export const meta: MetaFunction = () => [{ title: "Next task · SoCRATES Studio" }];

/**
 * The "next item" page. Its GET writes nothing (issue 29): it goes to a lease the annotator already
 * holds, else offers the next item by a POST. Reached from our own pages (or typed in) the page
 * posts at once, so the flow is as quick as before; reached from another site — a link, an `<img>`
 * — it waits for a click, so no other page can lease an item to a signed-in annotator.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const studyId = parseId(params.studyId, "study");
  const step = await orResponse(async () => await currentStep(await getDb(), studyId, user));
  if (step.kind === "go") throw redirect(step.path);
  // `done`: the POST found nothing; starting again by itself would only loop.
  const again = !new URL(request.url).searchParams.has("done");
  return json({
    studyId,
    name: step.name,
    hasWork: step.hasWork && again,
    autoStart: step.hasWork && again && navigatedFromHere(request),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const studyId = parseId(params.studyId, "study");
  const db = await getDb();
  throw redirect(
    await orResponseWrite(async (db) => await takeNextStep(db, studyId, user), { db, lock: studyLock(studyId) }),
  );
}

export default function NextTask() {
  const { studyId, name, hasWork, autoStart } = useLoaderData<typeof loader>();
  const form = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  useEffect(() => {
    if (autoStart) form.current?.requestSubmit();
  }, [autoStart]);
  if (hasWork) {
    return (
      <section className="empty-state" data-testid="next-start">
        <h1>{name}</h1>
        <Form method="post" ref={form}>
          <button type="submit" className="button-primary" autoFocus disabled={navigation.state !== "idle"}>
            Start the next item
          </button>
        </Form>
      </section>
    );
  }
  return (
    <section className="empty-state" data-testid="next-none">
      <h1>All done in “{name}”</h1>
      <p>
        There is no item left for you in this study: you have labelled everything you can, or the remaining items
        already have all their labels.
      </p>
      <p>
        <Link to={`/annotate/${studyId}/mine`}>Review or revise my labels</Link> ·{" "}
        <Link to="/annotate">Back to my tasks</Link>
      </p>
    </section>
  );
}
