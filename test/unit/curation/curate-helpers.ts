/** The real `socrates curate` in a child process against the stand-in endpoint, and seed folders to curate from. */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Domain } from "../../../app/domain/bundle.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
const ENTRY = join(ROOT, "scripts/socrates.mjs");

export interface Child {
  pid: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill(): void;
}

export function startCli(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, [ENTRY, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((done) =>
    child.on("close", (code, signal) => done({ code, signal, stdout, stderr })),
  );
  return { pid: child.pid!, exited, kill: () => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL") };
}

export async function until(check: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const TOPICS = ["ward closures", "shift pay", "land access", "water quotas", "late delivery", "a licence renewal", "data sharing", "a merger vote", "rent arrears", "a recall", "border tolls", "noise limits"];

/** A folder of seed reports in the `files` source's format, `count` per domain, each a distinct dispute. */
export function writeSeedFolder(dir: string, domains: Domain[], count: number, marks: Record<string, string> = {}): void {
  for (const domain of domains) {
    mkdirSync(join(dir, domain), { recursive: true });
    for (let i = 0; i < count; i++) {
      const topic = TOPICS[i % TOPICS.length];
      // A mark (e.g. "[writer:weights-sum-9]") makes the stand-in writer break a rule for this seed.
      const mark = marks[`${domain}/${i + 1}`];
      const title = `${domain} dispute ${i + 1} over ${topic}${mark ? ` ${mark}` : ""}`;
      const text = [
        "---",
        `domain: ${domain}`,
        `title: ${title}`,
        "---",
        "## Summary",
        `Two organisations in the ${domain} field have been at odds over ${topic} for two years.`,
        "## Parties",
        `- Aldermoor Company ${i + 1}: the operator, under financial pressure.`,
        `- Brightwell Agency ${i + 1}: the regulator, bound by statute.`,
        "## Issues",
        `- Who pays for ${topic}`,
        "- How fast the change happens",
        "- Who answers for past failures",
        "## Timeline",
        `- 12 May 2021: the dispute over ${topic} began.`,
        "- 3 February 2023: talks broke down.",
        "## Tensions",
        "- Financial pressure against a statutory mandate.",
        "## Status",
        "Unresolved; a hearing is scheduled.",
        "## Sources",
        `- https://example.org/${domain}/${i + 1}`,
        "",
      ].join("\n");
      writeFileSync(join(dir, domain, `seed-${String(i + 1).padStart(2, "0")}.md`), text);
    }
  }
}
