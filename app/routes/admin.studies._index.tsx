import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { NewStudyForm } from "../components/admin/NewStudyForm.tsx";
import { StudyList } from "../components/admin/StudyList.tsx";
import { actionResult, type ActionFailure } from "../server/http/responses.server.ts";
import { createStudyFromForm, studiesOverview } from "../server/annotation/study-admin.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { readForm } from "../server/http/request-body.server.ts";

export const meta: MetaFunction = () => [{ title: "Studies · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]);
  return json(studiesOverview(getDb()));
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request, ["admin"]);
  const form = await readForm(request);
  return actionResult(async () => redirect(`/admin/studies/${await createStudyFromForm(getDb(), form)}`));
}

export default function Studies() {
  const { studies, available, choices, defaultGuidelines } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as ActionFailure | undefined;
  const busy = useNavigation().state !== "idle";
  return (
    <>
      <h1>Studies</h1>
      <StudyList studies={studies} />
      <h2>New study</h2>
      <NewStudyForm available={available} choices={choices} defaultGuidelines={defaultGuidelines} failure={failure} busy={busy} formKey={studies.length} />
    </>
  );
}
