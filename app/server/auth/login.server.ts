/**
 * The login check behind /login: refuses at once (429) an account or client network with too
 * many recent failures, otherwise checks the password (constant time for unknown users, see
 * password.server.ts). Each attempt counts as a failure against both before the password is
 * checked, so parallel guesses cannot all slip past the count; a success then clears the
 * account's count and takes back its one from the network's (one good account must not reset an
 * address that guesses at others).
 */
import type { Db } from "../db.server.ts";
import { authenticate } from "../annotation/accounts.server.ts";
import { FailureLimiter, loginLimitSettings } from "./login-limiter.server.ts";

export type LoginOutcome =
  | { kind: "ok"; id: number; role: string }
  | { kind: "refused" }
  | { kind: "limited"; retryAfterSeconds: number };

let limiters: { account: FailureLimiter; address: FailureLimiter } | undefined;

function loginLimiters() {
  if (!limiters) {
    const settings = loginLimitSettings();
    limiters = { account: new FailureLimiter(settings.account), address: new FailureLimiter(settings.address) };
  }
  return limiters;
}

/** `network`: the client's network identity (app/server/http/load-context.server.ts). */
export async function logIn(
  db: Db,
  input: { username: string; password: string; network: string },
): Promise<LoginOutcome> {
  const { account, address } = loginLimiters();
  const accountKey = input.username.trim().toLowerCase();
  const wait = Math.max(account.retryAfter(accountKey), address.retryAfter(input.network));
  if (wait > 0) return { kind: "limited", retryAfterSeconds: wait };
  account.recordFailure(accountKey);
  address.recordFailure(input.network);
  const found = input.username && input.password ? await authenticate(db, input.username, input.password) : null;
  if (!found) return { kind: "refused" };
  account.clear(accountKey);
  address.forgive(input.network);
  return { kind: "ok", ...found };
}
