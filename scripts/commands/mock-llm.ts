/**
 * `socrates mock-llm`: the local OpenAI-compatible stand-in (app/server/llm/stand-in) for trying
 * the whole pipeline without a key. It answers every role with canned, deterministic replies made
 * from the prompt, picked by the role and template the request names in its headers: a stand-in,
 * never a model, so nothing measured against it means anything.
 */
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { mockConfigJson } from "../../app/server/llm/stand-in/config.server.ts";
import { LLM_ROLES } from "../../app/llm-roles/registry.ts";
import { standInResponder } from "../../app/llm-roles/stand-in.ts";
import { startSearchServer } from "../../app/server/llm/stand-in/search.server.ts";
import { startMockLlm } from "../../app/server/llm/stand-in/endpoint.server.ts";
import { parseIntOption, UserError } from "../cli-kit.ts";

/** The model name every role is configured with: what runs and calls record as their backbone. */
export const STAND_IN_MODEL = "stand-in";
const DEFAULT_PORT = "8808";
const DEFAULT_SEARCH_PORT = "8809";

interface MockLlmOptions {
  port: string;
  searchPort: string;
  writeConfig?: string;
}

/**
 * A socrates.config.json pointing every role at the stand-in, and curation's searches at the stand-in search server.
 */
function standInConfig(url: string, searchUrl: string): Record<string, unknown> {
  return {
    $comment:
      "STAND-IN endpoints from `npx socrates mock-llm`: canned replies and invented disputes, never a model or a search engine. Replace before measuring anything.",
    ...mockConfigJson(url, { model: STAND_IN_MODEL }),
    // The stand-in knows twelve disputes per domain; asking for all of them lets a walkthrough curate several per
    // domain. The stand-in and its pages are on 127.0.0.1, which the outbound policy refuses unless listed.
    curation: {
      source: {
        kind: "search-tools",
        backend: "searxng",
        url: searchUrl,
        maxResults: 12,
        allowPrivateHosts: [new URL(searchUrl).host],
      },
    },
  };
}

/** Starts a server, turning a taken port into a message naming the option to change. */
async function listen<T>(start: () => Promise<T>, option: string, port: number): Promise<T> {
  try {
    return await start();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE")
      throw new UserError(`port ${port} is in use; pick another with ${option} N (0 picks a free one)`);
    throw err;
  }
}

/** Resolves on the first Ctrl-C (SIGINT) or SIGTERM. */
function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => () => resolve(signal);
    process.once("SIGINT", stop("SIGINT"));
    process.once("SIGTERM", stop("SIGTERM"));
  });
}

async function runMockLlm(opts: MockLlmOptions): Promise<void> {
  const port = parseIntOption("port", opts.port, 0, 65_535);
  const searchPort = parseIntOption("search-port", opts.searchPort, 0, 65_535);
  // The search server first: the searcher's web-research citations point at its pages.
  const search = await listen(() => startSearchServer({ port: searchPort }), "--search-port", searchPort);
  const respond = standInResponder({ searchUrl: search.url });
  const mock = await listen(() => startMockLlm({ respond, port, models: [STAND_IN_MODEL] }), "--port", port).catch(
    async (err) => {
      await search.close();
      throw err;
    },
  );
  const config = JSON.stringify(standInConfig(mock.url, search.url), null, 2);
  console.log(`STAND-IN LLM endpoint (canned replies, not a model): ${mock.url}`);
  console.log(`STAND-IN search server (SearXNG-style, invented disputes, not a search engine): ${search.url}`);
  console.log(`It answers these roles with deterministic text made from the prompt: ${LLM_ROLES.join(", ")}.`);
  console.log(`Use it to try the pipeline without a key; never report figures measured against it.`);
  if (opts.writeConfig) {
    writeFileSync(opts.writeConfig, config + "\n");
    console.log(
      `\nWrote the configuration to ${opts.writeConfig}; pass it with --config ${opts.writeConfig} (or SOCRATES_CONFIG).`,
    );
  } else {
    console.log(`\nSave this as socrates.config.json (or run with --write-config FILE):\n${config}`);
  }
  console.log(`\nServing until Ctrl-C.`);
  const signal = await untilStopped();
  await Promise.all([mock.close(), search.close()]);
  console.log(`Stopped (${signal}).`);
}

export function registerMockLlmCommands(program: Command): void {
  program
    .command("mock-llm")
    .description(
      "start a local OpenAI-compatible STAND-IN endpoint (canned replies, never a model) for the pipeline's roles, to run it without a key",
    )
    .option("--port <n>", "port to listen on, on 127.0.0.1 (0 picks a free one)", DEFAULT_PORT)
    .option(
      "--search-port <n>",
      "port of the stand-in search server (SearXNG's JSON API) for curation's searcher (0 picks a free one)",
      DEFAULT_SEARCH_PORT,
    )
    .option(
      "--write-config <file>",
      "write a socrates.config.json pointing every role at the stand-in to FILE instead of printing it",
    )
    .addHelpText(
      "after",
      `
Walkthrough: docs/pipeline.md. Example:
  npx socrates mock-llm --write-config socrates.config.json
  npx socrates simulate --scenario demo-transactional-1 --mediator stand-in --runs 1   (in another terminal)`,
    )
    .action((opts: MockLlmOptions) => runMockLlm(opts));
}
