/**
 * Annotator accounts: admins and experts log in with a password (crowd workers: app/server/crowd/workers.server.ts).
 */
import { z } from "zod";
import { PASSWORD_MAX_LENGTH, passwordProblem } from "../../domain/password-strength.ts";
import type { Db } from "../db.server.ts";
import { hashPassword, verifyPassword } from "../auth/password.server.ts";
import { badInput, notFound, zodProblems } from "../http/errors.server.ts";
import { withWriteLock } from "../http/write-lock.server.ts";
import {
  findAnnotator,
  findAnnotatorByUsername,
  insertAnnotator,
  listAnnotatorRows,
  updateAnnotator,
  type AnnotatorRow,
} from "../models/annotator.server.ts";
import { deleteSessionsOf } from "../models/session.server.ts";
import { transact } from "../db-transaction.server.ts";

export const newAccountSchema = z
  .object({
    username: z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9._-]{1,31}$/, "2–32 lower-case letters, digits, '.', '_' or '-'"),
    displayName: z.string().trim().min(1, "must not be empty").max(80),
    role: z.enum(["admin", "expert"]),
    password: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .superRefine((account, ctx) => {
    const problem = passwordProblem(account.password, { username: account.username });
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["password"], message: problem });
  });

export async function createAccount(db: Db, input: z.input<typeof newAccountSchema>): Promise<number> {
  const parsed = newAccountSchema.safeParse(input);
  if (!parsed.success) {
    throw badInput("The account is not valid", zodProblems(parsed.error));
  }
  const { username, displayName, role, password } = parsed.data;
  if (await findAnnotatorByUsername(db, username))
    throw badInput(`The username "${username}" is taken`, [{ path: "username", message: "already taken" }]);
  const passwordHash = await hashPassword(password);
  return withWriteLock(db, async (db) => await insertAnnotator(db, { username, displayName, role, passwordHash }));
}

/** Refuses a weak password (app/domain/password-strength.ts) as a 400 naming the field. */
function checkPassword(password: string, username: string): void {
  const problem = passwordProblem(password, { username });
  if (problem) throw badInput(`The password ${problem}`, [{ path: "password", message: problem }]);
}

async function existingAccount(db: Db, annotatorId: number): Promise<AnnotatorRow> {
  const row = Number.isSafeInteger(annotatorId) && annotatorId > 0 ? await findAnnotator(db, annotatorId) : undefined;
  if (!row) throw notFound(`Account ${annotatorId}`);
  return row;
}

/** A new password for an admin or expert; every session of that account ends (it logs in again). */
export async function setPassword(db: Db, annotatorId: number, password: string): Promise<void> {
  const account = await existingAccount(db, annotatorId);
  if (account.role === "crowd") throw badInput("Crowd workers have no password");
  checkPassword(password, account.username);
  const passwordHash = await hashPassword(password);
  await withWriteLock(db, async (tx) => {
    await updateAnnotator(tx, annotatorId, { passwordHash });
    await deleteSessionsOf(tx, annotatorId);
  });
}

/**
 * The account id when username and password match an active admin or expert; null otherwise (never says which was
 * wrong).
 */
export async function authenticate(
  db: Db,
  username: string,
  password: string,
): Promise<{ id: number; role: string } | null> {
  const row = await findAnnotatorByUsername(db, username.trim().toLowerCase());
  // An unknown user costs the same scrypt run as a known one (verifyPassword hashes a dummy), so timing says nothing.
  const ok = await verifyPassword(password, row?.passwordHash ?? null);
  if (!row || !ok || !row.active || row.role === "crowd") return null;
  return { id: row.id, role: row.role };
}

export async function listAnnotators(db: Db) {
  return await listAnnotatorRows(db);
}

/** Activates or deactivates an account; deactivating ends its sessions. */
export async function setActive(db: Db, annotatorId: number, active: boolean): Promise<void> {
  await existingAccount(db, annotatorId);
  await transact(db, async (db) => {
    await updateAnnotator(db, annotatorId, { active });
    if (!active) await deleteSessionsOf(db, annotatorId);
  });
}

/** The annotators page's form posts (create, activate/deactivate, password); returns the message to show. */
export async function accountAction(db: Db, adminId: number, form: FormData): Promise<string> {
  const intent = String(form.get("intent"));
  const id = Number(form.get("id"));
  const field = (name: string) => String(form.get(name) ?? "");
  if (intent === "create") {
    await createAccount(db, {
      username: field("username"),
      displayName: field("displayName"),
      role: field("role") as "admin" | "expert",
      password: field("password"),
    });
    return "Account created.";
  }
  if (intent === "deactivate" || intent === "activate") {
    if (id === adminId) throw badInput("You cannot deactivate your own account");
    await setActive(db, id, intent === "activate");
    return intent === "activate" ? "Account activated." : "Account deactivated.";
  }
  if (intent === "password") {
    await setPassword(db, id, field("password"));
    return "Password changed.";
  }
  throw badInput(`Unknown action "${intent}"`);
}
