/**
 * The HTTP stack's floor under bench:annotation-http's load: every annotator, signed in, sends one
 * request over and over for a few seconds — a `.data` request of the glossary (no loader of its own:
 * only the root loader's session read, then single fetch's encoding, express and the socket) and
 * the `.data` request of an item the annotator holds (the task page's loader, its stamp written
 * once). The server's CPU per request says how much of a submit's cost is the stack rather than the
 * annotation work, whatever else shares the machine.
 */
import { startAppServer } from "../harness/app-server.ts";
import { loginCookie } from "../harness/login.ts";
import type { LoadFixture } from "./load-fixture.ts";
import { listenerPid, processCpuMs } from "./server-cpu.ts";

export interface FloorFigures {
  label: string;
  requests: number;
  seconds: number;
  /** Server CPU per request, ms (null where CPU cannot be read). */
  serverCpuMs: number | null;
}

/** Each client repeats its own GET until the time is up; how many answered 200, and how many did not. */
async function hammer(
  clients: { url: string; headers: Record<string, string> }[],
  seconds: number,
): Promise<{ requests: number; seconds: number; failures: number }> {
  let requests = 0;
  let failures = 0;
  const start = performance.now();
  const until = start + seconds * 1000;
  await Promise.all(
    clients.map(async ({ url, headers }) => {
      while (performance.now() < until) {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status === 200) requests++;
        else failures++;
      }
    }),
  );
  return { requests, seconds: (performance.now() - start) / 1000, failures };
}

/** One annotator signed in, with the first item leased to them: its headers and the item's path. */
async function signInAndLease(baseUrl: string, studyId: number, account: LoadFixture["accounts"][number]) {
  const headers = { Cookie: await loginCookie(baseUrl, account), "Sec-Fetch-Site": "same-origin" };
  const next = await fetch(`${baseUrl}/annotate/${studyId}/next`, {
    method: "POST",
    headers: { ...headers, Origin: baseUrl },
    body: new URLSearchParams(),
    redirect: "manual",
  });
  return { headers, item: next.headers.get("location") ?? "" };
}

/** Signs every annotator in, leases each their first item, then times the two floors on one server. */
export async function measureFloor(dbPath: string, fixture: LoadFixture, seconds: number): Promise<FloorFigures[]> {
  const server = await startAppServer({ dbPath });
  try {
    const pid = listenerPid(new URL(server.url).port);
    // A few logins at a time: the login limiter counts attempts from one address until each succeeds.
    const sessions: Awaited<ReturnType<typeof signInAndLease>>[] = [];
    for (let i = 0; i < fixture.accounts.length; i += 8) {
      const batch = fixture.accounts.slice(i, i + 8);
      sessions.push(...(await Promise.all(batch.map((a) => signInAndLease(server.url, fixture.studyId, a)))));
    }
    const floors: [string, (item: string) => string][] = [
      ["glossary .data (root loader only)", () => "/glossary.data"],
      ["held item .data (task page loader)", (item) => `${item}.data`],
    ];
    const figures: FloorFigures[] = [];
    for (const [label, path] of floors) {
      const cpu0 = processCpuMs(pid);
      const clients = sessions.map((s) => ({ url: server.url + path(s.item), headers: s.headers }));
      const run = await hammer(clients, seconds);
      if (run.failures > 0) throw new Error(`${label}: ${run.failures} requests failed`);
      const cpu1 = processCpuMs(pid);
      figures.push({
        label,
        requests: run.requests,
        seconds: run.seconds,
        serverCpuMs: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / run.requests,
      });
    }
    return figures;
  } finally {
    await server.stop();
  }
}
