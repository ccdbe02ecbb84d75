import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BenchmarkReportView } from "../components/benchmark/BenchmarkReportView.tsx";
import { requireUser } from "../server/auth/session.server.ts";
import { benchmarkPage } from "../server/benchmark/page.server.ts";
import { getDb } from "../server/db.server.ts";
import { orResponse } from "../server/http/responses.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.report.planName ?? "Benchmark"} · Benchmark · SoCRATES Studio` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]); // researchers only: mediator models and their scores
  return json(await orResponse(async () => benchmarkPage(await getDb(), params.planHash ?? "")));
}

/** Every registered report part the report holds, in report order (app/report-parts/registry.ts). */
export default function BenchmarkReportPage() {
  const { report, charts } = useLoaderData<typeof loader>();
  return <BenchmarkReportView report={report} charts={charts} />;
}
