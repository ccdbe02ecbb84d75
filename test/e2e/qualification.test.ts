/**
 * The reading test through the real production server, over HTTP. The server takes its test from
 * QUALIFICATION_TEST_FILE (a private file outside the repository) and never sends the key: not in
 * the page, not in the loader data. One person making up Prolific ids from one network gets a
 * fresh worker per id, but the study's attempts from that network are capped
 * (QUALIFICATION_ATTEMPTS_PER_NETWORK): past it, every attempt is refused with 429 and nothing
 * is stored.
 */
import Database from "better-sqlite3";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutAnswers, type QualificationTest } from "../../app/domain/qualification.ts";
import { DEMO_QUALIFICATION_TEST, loadQualificationTest } from "../../app/server/templates.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { DEMO, loginCookie } from "../../harness/login.ts";
import { tempDir } from "../../harness/temp-db.ts";

const STUDY = 2; // the demo's crowd consensus study
const CAP = 4;

/** The lab's own test: the demo's questions reworded, so the page shows which file the server read. */
function privateTest(): QualificationTest {
  const demo = loadQualificationTest(DEMO_QUALIFICATION_TEST);
  return {
    ...demo,
    id: "lab-private",
    title: "Lab reading check",
    questions: demo.questions.map((q) => ({ ...q, question: `Private: ${q.question}` })),
  };
}

describe("the reading test over HTTP", { timeout: 120_000 }, () => {
  const tmp = tempDir("socrates-private-test-");
  const test = privateTest();
  let server: AppServer;
  let made = 0;

  beforeAll(async () => {
    const file = join(tmp.dir, "reading-test.json");
    writeFileSync(file, JSON.stringify(test));
    server = await startAppServer({
      env: { QUALIFICATION_TEST_FILE: file, QUALIFICATION_ATTEMPTS_PER_NETWORK: String(CAP) },
    });
    const admin = await loginCookie(server.url, DEMO.admin);
    const saved = await fetch(`${server.url}/admin/studies/${STUDY}`, {
      method: "POST",
      headers: { cookie: admin },
      body: new URLSearchParams({
        intent: "prolific",
        completionCode: "LIMITS42",
        itemsPerSession: "2",
        rewardUsd: "",
      }),
    });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  const attempts = () => {
    const db = new Database(server.dbPath, { readonly: true });
    const rows = db
      .prepare(`SELECT annotator_id AS a, study_id AS s, network AS n FROM qualification_attempts ORDER BY id`)
      .all() as { a: number; s: number; n: string }[];
    db.close();
    return rows;
  };

  /** Opens the study URL as a made-up Prolific participant; returns their session cookie. */
  async function madeUpParticipant(): Promise<string> {
    made++;
    const ids = {
      PROLIFIC_PID: `madeup${made}`,
      STUDY_ID: "60aa11bb22cc33dd44ee55ff",
      SESSION_ID: `madeup-session-${made}`,
    };
    // Entering is a POST (issue 29: the link's GET stores nothing).
    const res = await fetch(`${server.url}/crowd/start?${new URLSearchParams({ study: String(STUDY), ...ids })}`, {
      method: "POST",
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/crowd/qualify?study=${STUDY}`);
    return res.headers.get("set-cookie")!.split(";")[0];
  }
  const answers = (pick: (q: QualificationTest["questions"][number]) => string) =>
    new URLSearchParams(test.questions.map((q) => [q.id, pick(q)]));
  const wrong = answers((q) => q.options.find((o) => o.id !== q.answer)!.id);
  const right = answers((q) => q.answer);
  const submit = (cookie: string, body: URLSearchParams) =>
    fetch(`${server.url}/crowd/qualify?study=${STUDY}`, {
      method: "POST",
      headers: { cookie },
      body,
      redirect: "manual",
    });

  it("serves the private test without its key, in the page and in the loader data", async () => {
    const cookie = await madeUpParticipant();
    const data = await fetch(`${server.url}/crowd/qualify?study=${STUDY}&_data=routes%2Fcrowd.qualify`, {
      headers: { cookie },
    });
    expect(data.status).toBe(200);
    const text = await data.text();
    expect(JSON.parse(text).questions).toEqual(withoutAnswers(test).questions);
    expect(text).not.toMatch(/"answer"/);

    const page = await fetch(`${server.url}/crowd/qualify?study=${STUDY}`, { headers: { cookie } });
    const html = await page.text();
    expect(html).toContain("Lab reading check");
    expect(html).toContain(test.questions[0].question);
    expect(html).not.toMatch(/\\?"answer\\?"/);
  });

  it("many made-up participants from one network: after the cap, attempts are refused with 429 and not stored", async () => {
    while (attempts().length < CAP) {
      const res = await submit(await madeUpParticipant(), wrong);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("which is not enough yet");
    }
    const stored = attempts();
    expect(new Set(stored.map((r) => r.a)).size).toBe(CAP);
    expect(stored.every((r) => r.s === STUDY && r.n === stored[0].n && r.n.length > 10)).toBe(true);

    // A fresh made-up id, even with the right answers, gets no attempt.
    const cookie = await madeUpParticipant();
    const shown = await fetch(`${server.url}/crowd/qualify?study=${STUDY}`, { headers: { cookie } });
    expect(shown.status).toBe(429);
    const html = await shown.text();
    expect(html).toContain("Too many reading-test attempts for this study have come from your network");
    expect(html).not.toContain("Submit answers");
    const refused = await submit(cookie, right);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("please contact the researcher");
    expect(attempts()).toEqual(stored);
    const db = new Database(server.dbPath, { readonly: true });
    expect(db.prepare(`SELECT qualified_at AS q FROM annotators WHERE external_id = ?`).get(`madeup${made}`)).toEqual({
      q: null,
    });
    db.close();

    // A made-up ?study= names no study the worker entered: it counts against the one they did.
    const other = await fetch(`${server.url}/crowd/qualify?study=3`, {
      method: "POST",
      headers: { cookie },
      body: right,
      redirect: "manual",
    });
    expect(other.status).toBe(429);
    expect(attempts()).toEqual(stored);
  });
});
