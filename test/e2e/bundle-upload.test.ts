/**
 * Issue 29, finding 9, over HTTP: the New-study form's bundle upload answered 500 for a bundle
 * SQLite refused (a stored condition's scenario, axis and variant under a new id); it answers
 * 400 naming the file, JSON path and problem, as it does for invalid UTF-8, and stores nothing.
 */
import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { DEMO, loginCookie } from "../../harness/login.ts";

const demoCondition = (
  JSON.parse(readFileSync("demo/demo-transactional.json", "utf8")) as {
    conditions: { id: string; scenario_id: string; axis: string; variant: string }[];
  }
).conditions[0];

describe("A/B study bundle upload over HTTP", () => {
  let server: AppServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startAppServer();
    cookie = await loginCookie(server.url, DEMO.admin);
  }, 120_000);
  afterAll(() => server?.stop());

  const upload = (bytes: Uint8Array<ArrayBuffer>, name: string) => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      type: "ab-reactiveness",
      name: "Upload",
      pool: "crowd",
      guidelines: "Compare the two conversations.",
    }))
      form.set(k, v);
    form.set("bundle", new Blob([bytes], { type: "application/json" }), name);
    return fetch(server.url + "/admin/studies", {
      method: "POST",
      headers: { cookie },
      body: form,
      redirect: "manual",
    });
  };
  const conditionCount = () => {
    const db = new Database(server.dbPath, { readonly: true });
    const { n } = db.prepare("SELECT count(*) AS n FROM conditions").get() as { n: number };
    db.close();
    return n;
  };

  it("answers 400 naming a stored condition's key reused under a new id, and 400 for invalid UTF-8", async () => {
    const before = conditionCount();
    const clash = { format: "socrates-bundle", version: 1, conditions: [{ ...demoCondition, id: "copied-condition" }] };
    const refused = await upload(new TextEncoder().encode(JSON.stringify(clash)), "clash.json");
    expect(refused.status).toBe(400);
    // The page's text, as React escapes it.
    const text = (await refused.text())
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&amp;/g, "&");
    expect(text).toContain("clash.json: $.conditions[0].variant");
    expect(text).toContain(
      `the stored condition "${demoCondition.id}" already has scenario "${demoCondition.scenario_id}"`,
    );

    const latin1 = new Uint8Array([
      ...new TextEncoder().encode('{"format":"socrates-bundle","version":1,"description":"caf'),
      0xe9,
      0x22,
      0x7d,
    ]);
    const undecodable = await upload(latin1, "latin1.json");
    expect(undecodable.status).toBe(400);
    expect(await undecodable.text()).toContain("invalid UTF-8 at byte 58 (line 1, byte 59 of the line: e9 22 7d)");
    expect(conditionCount()).toBe(before);
  });
});
