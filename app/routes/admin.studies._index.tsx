import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { NewStudyForm, type NewStudyResult } from "../components/admin/NewStudyForm.tsx";
import { StudyList } from "../components/admin/StudyList.tsx";
import { actionResult } from "../server/http/responses.server.ts";
import { createStudyFromForm, previewStudyFromForm, studiesOverview } from "../server/annotation/study-admin.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { echoFormOnFailure, submittedValues } from "../server/http/form-echo.server.ts";
import { readForm } from "../server/http/request-body.server.ts";

export const meta: MetaFunction = () => [{ title: "Studies · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]);
  return json(await studiesOverview(await getDb(), new URL(request.url).searchParams));
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request, ["admin"]);
  const form = await readForm(request);
  // "Preview item count" runs the creation and rolls it back; both keep what was typed.
  if (form.get("intent") === "preview") {
    return echoFormOnFailure(
      await actionResult(async (db) =>
        json({ ok: true as const, preview: await previewStudyFromForm(db, form), values: submittedValues(form) }),
      ),
      form,
    );
  }
  return echoFormOnFailure(
    await actionResult(async (db) => redirect(`/admin/studies/${await createStudyFromForm(db, form)}`)),
    form,
  );
}

export default function Studies() {
  const { studies, sort, filter, available, choices, defaultGuidelines } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as NewStudyResult | undefined;
  const busy = useNavigation().state !== "idle";
  return (
    <>
      <h1>Studies</h1>
      <StudyList studies={studies} sort={sort} filter={filter} />
      <h2>New study</h2>
      <NewStudyForm
        available={available}
        choices={choices}
        defaultGuidelines={defaultGuidelines}
        result={result}
        busy={busy}
      />
    </>
  );
}
