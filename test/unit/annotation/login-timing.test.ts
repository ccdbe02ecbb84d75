/**
 * Username enumeration by timing: an unknown user, a crowd account (no password) and a wrong
 * password each cost exactly one scrypt run at the default cost. Counted, not timed.
 */
import { afterAll, describe, expect, it, vi } from "vitest";

vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, scrypt: vi.fn(actual.scrypt) };
});

const { scrypt } = await import("node:crypto");
const { authenticate, createAccount } = await import("../../../app/server/annotation/accounts.server.ts");
const { tempDb } = await import("../../../harness/temp-db.ts");

const t = await tempDb();
afterAll(() => t.cleanup());

/** The cost parameters of each scrypt run `work` makes. */
async function scryptRuns(work: () => Promise<unknown>): Promise<unknown[]> {
  await authenticate(t.db, "warm-up-unknown", "x"); // the dummy hash is made once, on first use
  vi.mocked(scrypt).mockClear();
  await work();
  return vi.mocked(scrypt).mock.calls.map((call) => call[3]);
}

describe("login answers take one scrypt run whether or not the user exists", () => {
  it("unknown user, crowd account, known user with a wrong password", async () => {
    await createAccount(t.db, { username: "ada", displayName: "Ada", role: "expert", password: "long enough pass" });
    t.db.$client
      .prepare(
        `INSERT INTO annotators (username, display_name, role, channel, external_id) VALUES ('link:w1', 'Worker', 'crowd', 'link', 'w1')`,
      )
      .run();
    const known = await scryptRuns(() => authenticate(t.db, "ada", "wrong password"));
    expect(known).toHaveLength(1);
    expect(await scryptRuns(() => authenticate(t.db, "nobody", "wrong password"))).toEqual(known);
    expect(await scryptRuns(() => authenticate(t.db, "link:w1", "wrong password"))).toEqual(known);
    expect(known[0]).toMatchObject({ N: 16384, r: 8, p: 1 });
  });
});
