/** `socrates llm …`: check the configured model endpoints, and report token use and cost. */
import type { Command } from "commander";
import { openDatabase } from "../../app/server/db.server.ts";
import { checkRoles } from "../../app/server/llm/check.server.ts";
import {
  LlmConfigError,
  loadLlmConfig,
  resolveConfigPath,
  type LlmConfig,
} from "../../app/server/llm/config.server.ts";
import { formatUsage, summariseUsage } from "../../app/server/llm/usage.server.ts";
import { parseIntOption, printJson, UserError } from "../cli-kit.ts";

/** Loads the LLM configuration for a command, turning configuration problems into exit code 2. */
export function loadConfigOrExplain(flag?: string): LlmConfig {
  try {
    return loadLlmConfig(resolveConfigPath(flag));
  } catch (err) {
    if (err instanceof LlmConfigError) throw new UserError(err.message);
    throw err;
  }
}

export function registerLlmCommands(program: Command): void {
  const llm = program
    .command("llm")
    .description("the model endpoints of the benchmark pipeline (configuration: docs/llm.md)");

  llm
    .command("check")
    .description(
      "send one 1-token request per configured role (per replica for a pool) and print one line per role and replica; exits 2 if a role has no working server",
    )
    .option("--config <path>", "LLM configuration file (default: $SOCRATES_CONFIG, else ./socrates.config.json)")
    .option("--timeout <ms>", "per-request timeout in milliseconds; a check never retries", "10000")
    .addHelpText(
      "after",
      `
Example output:
  searcher        ok  gpt-4o-mini @ https://api.openai.com/v1 (412 ms)
  party           FAILED  qwen2.5-7b @ http://127.0.0.1:8000/v1: connect ECONNREFUSED 127.0.0.1:8000
  mi-judge        ok  gpt-4o-mini @ https://api.openai.com/v1 (380 ms)
  emotion-judge   -  not configured
  evaluator       ok  qwen2.5-72b @ pool "cluster" (2 replicas, 1 out)
    cluster#1       ok   http://10.0.0.1:8000/v1 (95 ms; model listed)
    cluster#2       OUT  http://10.0.0.2:8000/v1: HTTP 503 (Service Unavailable); models: HTTP 503 (Service Unavailable)`,
    )
    .action(async (opts: { config?: string; timeout: string }) => {
      const config = loadConfigOrExplain(opts.config);
      const timeoutMs = parseIntOption("timeout", opts.timeout, 1, 600_000);
      const checks = await checkRoles(config, { timeoutMs });
      for (const check of checks) {
        console.log(check.line);
        for (const replica of check.replicas ?? []) console.log(replica.line);
      }
      const failed = checks.filter((c) => c.status === "failed").length;
      if (checks.every((c) => c.status === "not configured"))
        throw new UserError(`${config.source}: no role is configured`);
      if (failed > 0)
        throw new UserError(
          `${failed} of ${checks.filter((c) => c.status !== "not configured").length} roles failed the check`,
        );
    });

  llm
    .command("usage")
    .description(
      "per-role LLM calls, HTTP requests, tokens and cost recorded in the database (SOCRATES_DB overrides data/socrates.db)",
    )
    .option("--subject <id>", "only calls made for this subject (a run id or scenario id)")
    .option("--json", "print JSON instead of a table")
    .addHelpText(
      "after",
      `
Calls are distinct requests (a cached reply is reused, not counted again); tokens and cost add
up every attempt, including retries and the one repair request per invalid reply. Cost uses
the "prices" of the LLM configuration at the time of the call.`,
    )
    .action(async (opts: { subject?: string; json?: boolean }) => {
      const rows = await summariseUsage(await openDatabase(), { subject: opts.subject });
      if (opts.json) return printJson(rows);
      if (rows.length === 0) {
        console.log(
          opts.subject === undefined ? "no LLM calls recorded" : `no LLM calls recorded for subject "${opts.subject}"`,
        );
        return;
      }
      console.log(formatUsage(rows));
    });
}
