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

async function hammer(
  url: string,
  headers: Record<string, string>[],
  seconds: number,
): Promise<{ requests: number; seconds: number; failures: number }> {
  let requests = 0;
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(
    headers.map(async (h) => {
      while (performance.now() < until) {
        const res = await fetch(url, { headers: h });
        await res.arrayBuffer();
        if (res.status === 200) requests++;
        else failures++;
      }
    }),
  );
  return { requests, seconds: (performance.now() - start) / 1000, failures };
}

/** Signs every annotator in, leases each their first item, then times the two floors on one server. */
export async function measureFloor(dbPath: string, fixture: LoadFixture, seconds: number): Promise<FloorFigures[]> {
  const server = await startAppServer({ dbPath });
  try {
    const pid = listenerPid(new URL(server.url).port);
    // A few logins at a time: the login limiter counts attempts from one address until each succeeds.
    const sessions: { h: Record<string, string>; item: string }[] = [];
    for (let i = 0; i < fixture.accounts.length; i += 8) {
      sessions.push(...(await signInBatch(fixture.accounts.slice(i, i + 8))));
    }
    async function signInBatch(accounts: LoadFixture["accounts"]) {
      return await Promise.all(
        accounts.map(async (account) => {
          const cookie = await loginCookie(server.url, account);
          const h = { Cookie: cookie, "Sec-Fetch-Site": "same-origin" };
          const next = await fetch(`${server.url}/annotate/${fixture.studyId}/next`, {
            method: "POST",
            headers: { ...h, Origin: server.url },
            body: new URLSearchParams(),
            redirect: "manual",
          });
          return { h, item: next.headers.get("location") ?? "" };
        }),
      );
    }
    const figures: FloorFigures[] = [];
    const floors: [string, (s: (typeof sessions)[number]) => string][] = [
      ["glossary .data (root loader only)", () => "/glossary.data"],
      ["held item .data (task page loader)", (s) => `${s.item}.data`],
    ];
    for (const [label, path] of floors) {
      const cpu0 = processCpuMs(pid);
      let total = 0;
      let elapsed = 0;
      // One path per annotator: each client repeats its own request.
      const groups = new Map<string, Record<string, string>[]>();
      for (const s of sessions) groups.set(path(s), [...(groups.get(path(s)) ?? []), s.h]);
      const runs = await Promise.all([...groups].map(([p, hs]) => hammer(server.url + p, hs, seconds)));
      for (const r of runs) {
        total += r.requests;
        elapsed = Math.max(elapsed, r.seconds);
        if (r.failures > 0) throw new Error(`${label}: ${r.failures} requests failed`);
      }
      const cpu1 = processCpuMs(pid);
      figures.push({
        label,
        requests: total,
        seconds: elapsed,
        serverCpuMs: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / total,
      });
    }
    return figures;
  } finally {
    await server.stop();
  }
}
