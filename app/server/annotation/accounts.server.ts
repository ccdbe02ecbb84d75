/** Annotator accounts: admins and experts log in with a password (crowd workers: app/server/crowd/workers.server.ts). */
import { z } from "zod";
import type { Db } from "../db.server.ts";
import { hashPassword, verifyPassword } from "../auth/password.server.ts";
import { badInput, zodProblems } from "../http/errors.server.ts";
import { findAnnotatorByUsername, insertAnnotator, listAnnotatorRows, updateAnnotator } from "../models/annotator.server.ts";

export const newAccountSchema = z.object({
  username: z.string().trim().regex(/^[a-z0-9][a-z0-9._-]{1,31}$/, "2–32 lower-case letters, digits, '.', '_' or '-'"),
  displayName: z.string().trim().min(1, "must not be empty").max(80),
  role: z.enum(["admin", "expert"]),
  password: z.string().min(10, "at least 10 characters").max(200),
});

export async function createAccount(db: Db, input: z.input<typeof newAccountSchema>): Promise<number> {
  const parsed = newAccountSchema.safeParse(input);
  if (!parsed.success) {
    throw badInput("The account is not valid", zodProblems(parsed.error));
  }
  const { username, displayName, role, password } = parsed.data;
  if (findAnnotatorByUsername(db, username)) throw badInput(`The username "${username}" is taken`, [{ path: "username", message: "already taken" }]);
  const passwordHash = await hashPassword(password);
  return insertAnnotator(db, { username, displayName, role, passwordHash });
}

export async function setPassword(db: Db, annotatorId: number, password: string): Promise<void> {
  const parsed = newAccountSchema.shape.password.safeParse(password);
  if (!parsed.success) throw badInput("The password is not valid", [{ path: "password", message: parsed.error.issues[0].message }]);
  updateAnnotator(db, annotatorId, { passwordHash: await hashPassword(password) });
}

/** The account id when username and password match an active admin or expert; null otherwise (never says which was wrong). */
export async function authenticate(db: Db, username: string, password: string): Promise<{ id: number; role: string } | null> {
  const row = findAnnotatorByUsername(db, username.trim().toLowerCase());
  const ok = await verifyPassword(password, row?.passwordHash ?? null);
  if (!row || !ok || !row.active || row.role === "crowd") return null;
  return { id: row.id, role: row.role };
}

export function listAnnotators(db: Db) {
  return listAnnotatorRows(db);
}

export function setActive(db: Db, annotatorId: number, active: boolean): void {
  updateAnnotator(db, annotatorId, { active });
}

/** The annotators page's form posts (create, activate/deactivate, password); returns the message to show. */
export async function accountAction(db: Db, adminId: number, form: FormData): Promise<string> {
  const intent = String(form.get("intent"));
  const id = Number(form.get("id"));
  const field = (name: string) => String(form.get(name) ?? "");
  if (intent === "create") {
    await createAccount(db, { username: field("username"), displayName: field("displayName"), role: field("role") as "admin" | "expert", password: field("password") });
    return "Account created.";
  }
  if (intent === "deactivate" || intent === "activate") {
    if (id === adminId) throw badInput("You cannot deactivate your own account");
    setActive(db, id, intent === "activate");
    return intent === "activate" ? "Account activated." : "Account deactivated.";
  }
  if (intent === "password") {
    await setPassword(db, id, field("password"));
    return "Password changed.";
  }
  throw badInput(`Unknown action "${intent}"`);
}
