import { defineConfig } from "drizzle-kit";

/** The PostgreSQL migrations, made from db/schema-pg.ts (itself made from db/schema.ts). */
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema-pg.ts",
  out: "./db/migrations-pg",
  dbCredentials: { url: process.env.DATABASE_URL ?? "postgres://localhost/socrates" },
});
