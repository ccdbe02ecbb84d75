/**
 * Serves the web app. On start it migrates the database, seeds the demo study when the
 * database is empty, and prints where to go. `--dev` serves through Vite with hot reload;
 * otherwise it serves the production build in build/ (npm start builds it first), or in
 * $SOCRATES_BUILD_DIR when set (the tests serve their own build-test/; scripts/build-dir.ts).
 */
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describeTarget, getDb } from "../app/server/db.server.ts";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
import { isEmpty, seedDemo } from "../demo/seed.ts";
import { DEMO_ACCOUNTS, seedDemoStudies } from "../demo/studies.ts";
import { seedDemoBenchmark } from "../demo/benchmark/seed.ts";
import { authenticate } from "../app/server/annotation/accounts.server.ts";
import { computeMetrics } from "../app/server/pipeline/metrics-runner.server.ts";
import { bodyLimit } from "../app/server/http/body-limit.server.ts";
import { crossOriginProtection } from "../app/server/http/cross-origin.server.ts";
import { remixHandler } from "../app/server/http/remix-handler.server.ts";
import { cacheRouteMatches } from "../app/server/http/route-match-cache.server.ts";
import { policyOptions, securityHeaders } from "../app/server/http/security-headers.server.ts";
import { serverSettings } from "../app/server/http/server-settings.server.ts";
import { buildDirectory } from "./build-dir.ts";

/**
 * The build's top-level client files (favicon and the like), served statically. Only their exact
 * paths reach express.static: letting it look up every request (each .data request, each page)
 * cost a failed stat per request, about 8% of the server's time under load.
 */
function topLevelFiles(dir: string): express.RequestHandler {
  const files = new Set(
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => `/${e.name}`),
  );
  const serve = express.static(dir, { maxAge: "1h" });
  return (req, res, next) => (files.has(req.path) ? serve(req, res, next) : next());
}

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const settings = serverSettings();

const db = await getDb();
if (await isEmpty(db)) {
  const summary = await seedDemo(db);
  console.log(
    `Seeded the demo study: ${summary.inserted.scenarios} scenarios, ${summary.inserted.runs} runs, ${summary.inserted.evaluations} evaluations.`,
  );
  // The run viewer shows stored metrics; compute them for the demo so it has them from the start.
  const metrics = await computeMetrics(db);
  console.log(`Computed ${metrics.rows.length} metric values for the demo runs and pairs.`);
  const studies = await seedDemoStudies(db);
  if (studies.created)
    console.log(
      "Seeded the demo annotation studies: an expert consensus study partly labelled by two experts, a crowd consensus study (link workers and a small imported MTurk batch) and a crowd A/B study.",
    );
  // After the studies, which sample the hand-written runs: the benchmark's stand-in runs stay out of them.
  const bench = await seedDemoBenchmark(db);
  console.log(
    `Seeded the demo benchmark "${bench.plan.plan.name}": ${bench.imported.inserted.runs} runs, ${bench.imported.inserted.evaluations} evaluations (stand-in output, not model output).`,
  );
}
// Print a demo login only while its demo password still works (never once someone changed it).
const workingDemoLogins: (typeof DEMO_ACCOUNTS)[number][] = [];
for (const account of DEMO_ACCOUNTS)
  if (await authenticate(db, account.username, account.password)) workingDemoLogins.push(account);

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", settings.trustProxy);
// Before anything answers: headers on every response, then the CSRF check (docs: security).
app.use(securityHeaders(policyOptions(process.env, dev)));
app.use(crossOriginProtection(settings.appOrigin));

let build: ServerBuild | (() => Promise<ServerBuild>);
if (dev) {
  const vite = await import("vite");
  const viteServer = await vite.createServer({ server: { middlewareMode: true } });
  app.use(viteServer.middlewares);
  build = () => viteServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
} else {
  const dir = buildDirectory();
  const serverBuild = resolve(dir, "server/index.js");
  if (!existsSync(serverBuild)) {
    console.error(`No production build in ${dir}/. Run \`npm run build\` first, or use \`npm start\`, which builds.`);
    process.exit(1);
  }
  app.use("/assets", express.static(join(dir, "client/assets"), { immutable: true, maxAge: "1y" }));
  app.use(topLevelFiles(join(dir, "client")));
  // The route tree is fixed in production: each path's matches are worked out once (route-match-cache.server.ts).
  cacheRouteMatches();
  build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
}
app.all(
  "*",
  bodyLimit(settings.maxBodyBytes),
  remixHandler({ build, mode: dev ? "development" : "production", appOrigin: settings.appOrigin }),
);

const server = app.listen(port, host, () => {
  const url = `http://${host === "0.0.0.0" ? "localhost" : host}:${port}/`;
  console.log(`\nSoCRATES Studio is running at ${url}`);
  console.log(`Database: ${describeTarget()}`);
  if (workingDemoLogins.length) {
    console.log("Demo logins (demo only — change or deactivate them before real use):");
    for (const a of workingDemoLogins)
      console.log(`  ${a.role.padEnd(6)} ${a.username.padEnd(6)} password: ${a.password}`);
  }
  console.log("");
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    // A SQLite file's connections, or a PostgreSQL pool (DATABASE_URL).
    void closeDatabase(db).finally(() => process.exit(0));
  });
}
