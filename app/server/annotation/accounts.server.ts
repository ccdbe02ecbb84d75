/** Annotator accounts: admins and experts log in with a password; crowd workers are keyed by channel and worker id. */
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { hashPassword, verifyPassword } from "../auth/password.server.ts";
import { badInput } from "../http/errors.server.ts";

export const CROWD_CHANNELS = ["link", "mturk", "prolific"] as const;
export type CrowdChannel = (typeof CROWD_CHANNELS)[number];

export const newAccountSchema = z.object({
  username: z.string().trim().regex(/^[a-z0-9][a-z0-9._-]{1,31}$/, "2–32 lower-case letters, digits, '.', '_' or '-'"),
  displayName: z.string().trim().min(1, "must not be empty").max(80),
  role: z.enum(["admin", "expert"]),
  password: z.string().min(10, "at least 10 characters").max(200),
});

export async function createAccount(db: Db, input: z.input<typeof newAccountSchema>): Promise<number> {
  const parsed = newAccountSchema.safeParse(input);
  if (!parsed.success) {
    throw badInput("The account is not valid", parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  }
  const { username, displayName, role, password } = parsed.data;
  const exists = db.select({ id: schema.annotators.id }).from(schema.annotators).where(eq(schema.annotators.username, username)).get();
  if (exists) throw badInput(`The username "${username}" is taken`, [{ path: "username", message: "already taken" }]);
  const passwordHash = await hashPassword(password);
  return db.insert(schema.annotators).values({ username, displayName, role, passwordHash }).returning({ id: schema.annotators.id }).get().id;
}

export async function setPassword(db: Db, annotatorId: number, password: string): Promise<void> {
  const parsed = newAccountSchema.shape.password.safeParse(password);
  if (!parsed.success) throw badInput("The password is not valid", [{ path: "password", message: parsed.error.issues[0].message }]);
  db.update(schema.annotators).set({ passwordHash: await hashPassword(password) }).where(eq(schema.annotators.id, annotatorId)).run();
}

/** The account id when username and password match an active admin or expert; null otherwise (never says which was wrong). */
export async function authenticate(db: Db, username: string, password: string): Promise<{ id: number; role: string } | null> {
  const row = db.select().from(schema.annotators).where(eq(schema.annotators.username, username.trim().toLowerCase())).get();
  const ok = await verifyPassword(password, row?.passwordHash ?? null);
  if (!row || !ok || !row.active || row.role === "crowd") return null;
  return { id: row.id, role: row.role };
}

/** The crowd annotator for a worker id on a channel, created on first arrival. */
export function findOrCreateCrowdWorker(db: Db, channel: CrowdChannel, workerId: string): number {
  const cleaned = workerId.trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cleaned)) throw badInput("A worker id is 1–64 letters, digits, '_' or '-'", [{ path: "workerId", message: "not a valid worker id" }]);
  const existing = db
    .select({ id: schema.annotators.id })
    .from(schema.annotators)
    .where(and(eq(schema.annotators.channel, channel), eq(schema.annotators.externalId, cleaned)))
    .get();
  if (existing) return existing.id;
  return db
    .insert(schema.annotators)
    .values({ username: `${channel}:${cleaned}`, displayName: `${channel} worker ${cleaned}`, role: "crowd", channel, externalId: cleaned })
    .onConflictDoNothing()
    .returning({ id: schema.annotators.id })
    .get()?.id ?? findOrCreateCrowdWorker(db, channel, cleaned);
}

export function listAnnotators(db: Db) {
  return db
    .select({
      id: schema.annotators.id,
      username: schema.annotators.username,
      displayName: schema.annotators.displayName,
      role: schema.annotators.role,
      channel: schema.annotators.channel,
      active: schema.annotators.active,
      qualifiedAt: schema.annotators.qualifiedAt,
      createdAt: schema.annotators.createdAt,
    })
    .from(schema.annotators)
    .orderBy(asc(schema.annotators.role), asc(schema.annotators.username))
    .all();
}

export function setActive(db: Db, annotatorId: number, active: boolean): void {
  db.update(schema.annotators).set({ active }).where(eq(schema.annotators.id, annotatorId)).run();
}

/** How many crowd annotators a channel has brought in. */
export function crowdWorkerCount(db: Db, channel: CrowdChannel): number {
  return db.select({ n: sql<number>`count(*)` }).from(schema.annotators).where(eq(schema.annotators.channel, channel)).get()!.n;
}

/** When the annotator passed the qualification test (null until then). */
export function qualifiedAt(db: Db, annotatorId: number): string | null {
  return db.select({ q: schema.annotators.qualifiedAt }).from(schema.annotators).where(eq(schema.annotators.id, annotatorId)).get()?.q ?? null;
}
