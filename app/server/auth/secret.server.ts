/**
 * The secret that signs session cookies and crowd links: SESSION_SECRET from the environment,
 * or a development default generated once and kept beside the database, so logins survive a
 * restart and no two installations share a secret.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { databasePath } from "../db.server.ts";

let cached: string | undefined;

export function appSecret(): string {
  if (cached) return cached;
  const fromEnv = process.env.SESSION_SECRET;
  if (fromEnv) {
    if (fromEnv.length < 16) throw new Error("SESSION_SECRET must be at least 16 characters");
    return (cached = fromEnv);
  }
  const file = join(dirname(databasePath()), ".session-secret");
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  }
  return (cached = readFileSync(file, "utf8").trim());
}
