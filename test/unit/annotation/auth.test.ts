import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../../app/server/auth/password.server.ts";
import { crowdLinkSignature, verifyCrowdLink } from "../../../app/server/auth/crowd-link.server.ts";
import { authenticate, createAccount } from "../../../app/server/annotation/accounts.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";

describe("passwords", () => {
  it("are stored as salted scrypt hashes, never in clear, and verify only the right password", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toContain("correct");
    expect(a).not.toBe(b); // a fresh salt each time
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("anything", null)).toBe(false);
    expect(await verifyPassword("anything", "plain-text")).toBe(false);
  });

  it("log in admins and experts only, and never a deactivated or crowd account", async () => {
    const t = await tempDb();
    try {
      await createAccount(t.db, { username: "ada", displayName: "Ada", role: "expert", password: "long enough pass" });
      expect(await authenticate(t.db, "ada", "long enough pass")).toMatchObject({ role: "expert" });
      expect(await authenticate(t.db, "ADA ", "long enough pass")).toMatchObject({ role: "expert" });
      expect(await authenticate(t.db, "ada", "wrong")).toBeNull();
      expect(await authenticate(t.db, "nobody", "long enough pass")).toBeNull();
      await expect(
        createAccount(t.db, { username: "ada", displayName: "Again", role: "admin", password: "long enough pass" }),
      ).rejects.toThrow(/taken/);
      await expect(
        createAccount(t.db, { username: "x y", displayName: "", role: "admin", password: "short" }),
      ).rejects.toMatchObject({
        problems: expect.arrayContaining([
          expect.objectContaining({ path: "username" }),
          expect.objectContaining({ path: "password" }),
        ]),
      });
      t.db.$client.prepare(`UPDATE annotators SET active = 0 WHERE username = 'ada'`).run();
      expect(await authenticate(t.db, "ada", "long enough pass")).toBeNull();
    } finally {
      await t.cleanup();
    }
  });
});

describe("signed crowd links", () => {
  const secret = "a-test-secret-of-some-length";
  it("verify for the study and worker they were made for, and nothing else", () => {
    const sig = crowdLinkSignature(3, "W1", secret);
    expect(verifyCrowdLink(3, "W1", sig, secret)).toBe(true);
    expect(verifyCrowdLink(4, "W1", sig, secret)).toBe(false);
    expect(verifyCrowdLink(3, "W2", sig, secret)).toBe(false);
    expect(verifyCrowdLink(3, "W1", sig, "another-secret-entirely")).toBe(false);
    expect(verifyCrowdLink(3, "W1", sig.slice(0, -1), secret)).toBe(false);
  });
});
