/**
 * One simulated run: parties speak in their fixed cycle; after each party turn that does not
 * end the run, the mediator (if any) decides whether to step in ("when") and, if so, speaks
 * once ("how"). The socially intelligent mediator (RunSetup.mediatorSocial) plays its gap in
 * social-mediator.ts instead: tracker, closing or motivation, candidates, voice. The run is returned
 * whole or not at all: any failed call abandons it.
 *
 * With `emotion` on, every party turn also reports the party's emotion (0–100) and its reason,
 * stored on the turn and shown back only to that party (app/domain/visibility.ts).
 *
 * Every request is a pure function of (run setup, turns so far), and the turns so far come from
 * earlier replies, so replaying an interrupted run sends identical requests and the LLM cache
 * answers them without a new call.
 */
import { MEDIATOR_ID, type Outcome, type Run, type Turn } from "../bundle.ts";
import { callSeed, countPartyTurns, outcomeAfter, partyForTurn } from "./schedule.ts";
import { mediatorView, partyView, type MediatorView, type PartyView, type PlayedScenario } from "../visibility.ts";
import type { ChatMessage, Llm, LlmRequest, LlmResult } from "../llm/types.ts";
import { partyEmotionReplySchema, partyReplySchema } from "../../llm-roles/party/reply.ts";
import { mediatorHowReplySchema, mediatorWhenReplySchema } from "../../llm-roles/mediator/reply.ts";
import type { SocialSettings } from "./mediator-settings.ts";
import { socialMediatorGap, type Ask, type SocialRender } from "./social-mediator.ts";

/** The chat messages of each kind of call, built from what that speaker may see (injected: templates live on disk). */
export interface SimulationPrompts {
  party(view: PartyView): ChatMessage[];
  /** The party's messages in a run with emotion (RunSetup.emotion): it also rates how it feels. */
  partyEmotion(view: PartyView): ChatMessage[];
  mediatorWhen(view: MediatorView): ChatMessage[];
  mediatorHow(view: MediatorView, reason: string): ChatMessage[];
  /** The template each builder renders, named with its request (the stand-in answers by it). */
  templates: { party: string; partyEmotion: string; mediatorWhen: string; mediatorHow: string };
  /** The socially intelligent mediator's steps (used when RunSetup.mediatorSocial is set). */
  social?: SocialRender;
}

export interface RunSetup {
  runId: string;
  conditionId: string;
  scenario: PlayedScenario;
  partyOrder: string[];
  simulatorModel: string;
  /** The mediator's model, or null for an unmediated run. */
  mediatorModel: string | null;
  budget: number;
  /** The run seed; per-call seeds derive from it. */
  seed: number;
  /** Parties self-report their emotion every turn (default off: the requests of runs without it are unchanged). */
  emotion?: boolean;
  /** The socially intelligent mediator's settings: its gap runs social-mediator.ts instead of when/how. */
  mediatorSocial?: SocialSettings;
  /** Recorded on the run as its `config`. */
  config: Record<string, unknown>;
}

export interface CallStats {
  /** Calls answered by the endpoint (tokens and cost count these only). */
  made: number;
  /** Calls answered from the LLM cache. */
  cached: number;
  failed: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

export const emptyStats = (): CallStats => ({
  made: 0,
  cached: 0,
  failed: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
});

export function addStats(into: CallStats, from: CallStats): void {
  into.made += from.made;
  into.cached += from.cached;
  into.failed += from.failed;
  into.promptTokens += from.promptTokens;
  into.completionTokens += from.completionTokens;
  into.costUsd += from.costUsd;
}

export type RunAttempt =
  | { ok: true; run: Run; stats: CallStats }
  | { ok: false; runId: string; reason: string; aborted: boolean; stats: CallStats };

/** Thrown inside the loop to abandon the run; turned into a RunAttempt at the edge. */
class Abandon extends Error {
  constructor(
    message: string,
    readonly aborted = false,
  ) {
    super(message);
  }
}

/** The run's way to call the LLM: every call is counted into `stats`, and a failure or an abort abandons the run. */
function runAsker(llm: Llm, runId: string, stats: CallStats, signal: AbortSignal | undefined): Ask {
  return async function ask<T>(what: string, request: LlmRequest<T>): Promise<Extract<LlmResult<T>, { ok: true }>> {
    if (signal?.aborted) throw new Abandon("aborted", true);
    const result: LlmResult<T> = await llm.call({ ...request, subject: runId });
    if (result.cached) stats.cached += 1;
    else {
      // Only new calls spend: a cached reply's tokens were paid for by an earlier call.
      stats.made += 1;
      stats.promptTokens += result.usage.promptTokens;
      stats.completionTokens += result.usage.completionTokens;
      stats.costUsd += result.usage.costUsd;
    }
    if (!result.ok) {
      stats.failed += 1;
      throw new Abandon(`${what}: ${result.error}`);
    }
    return result;
  };
}

/** One party turn; with emotion, the reply also carries the party's emotion and its reason. */
async function partyTurn(
  ask: Ask,
  prompts: SimulationPrompts,
  setup: RunSetup,
  turns: readonly Turn[],
  speaker: string,
  partyTurns: number,
): Promise<Turn> {
  const what = `turn ${turns.length + 1} (${speaker})`;
  const view = partyView(setup.scenario, speaker, turns);
  const request = {
    role: "party" as const,
    model: setup.simulatorModel,
    seed: callSeed(setup.seed, "party", partyTurns),
  };
  const turn = { turn_id: turns.length + 1, speaker, role: "party" as const };
  if (!setup.emotion) {
    const messages = prompts.party(view);
    const { value: reply } = await ask(what, {
      ...request,
      messages,
      template: prompts.templates.party,
      schema: partyReplySchema,
    });
    return { ...turn, utterance: reply.utterance, thought: reply.thought, signal: reply.signal };
  }
  const messages = prompts.partyEmotion(view);
  const template = prompts.templates.partyEmotion;
  const { value: reply } = await ask(what, { ...request, messages, template, schema: partyEmotionReplySchema });
  return {
    ...turn,
    utterance: reply.utterance,
    thought: reply.thought,
    signal: reply.signal,
    emotion: reply.emotion,
    emotion_reason: reply.emotion_reason,
  };
}

/**
 * The mediator's gap after a party turn: decide (recorded in `decisions`), then maybe speak once
 * (appended to `turns`).
 */
async function mediatorGap(
  ask: Ask,
  prompts: SimulationPrompts,
  setup: RunSetup,
  mediatorModel: string,
  turns: Turn[],
  decisions: NonNullable<Run["mediator_decisions"]>,
  partyTurns: number,
): Promise<void> {
  const afterTurn = turns.length;
  const view = mediatorView(setup.scenario, turns);
  const decided = await ask(`mediator decision after turn ${afterTurn}`, {
    role: "mediator",
    model: mediatorModel,
    messages: prompts.mediatorWhen(view),
    template: prompts.templates.mediatorWhen,
    schema: mediatorWhenReplySchema,
    seed: callSeed(setup.seed, "mediator-when", partyTurns + 1),
  });
  const decision = decided.value;
  // RL's decision seconds: the original call's recorded latency, also when the cache answers (a resumed run).
  const seconds = decided.latencyMs / 1000;
  decisions.push({ after_turn: afterTurn, engage: decision.should_engage, thought: decision.thought, seconds });
  if (!decision.should_engage) return;
  const { value: spoken } = await ask(`mediator turn ${afterTurn + 1}`, {
    role: "mediator",
    model: mediatorModel,
    messages: prompts.mediatorHow(view, decision.thought),
    template: prompts.templates.mediatorHow,
    schema: mediatorHowReplySchema,
    seed: callSeed(setup.seed, "mediator-how", partyTurns + 1),
  });
  turns.push({ turn_id: turns.length + 1, speaker: MEDIATOR_ID, role: "mediator", utterance: spoken.utterance });
}

/** Plays the run to its outcome, appending to `turns` and `decisions`; throws Abandon when a call fails. */
async function playRun(
  ask: Ask,
  prompts: SimulationPrompts,
  setup: RunSetup,
  turns: Turn[],
  decisions: NonNullable<Run["mediator_decisions"]>,
): Promise<Outcome> {
  let outcome: Outcome | null = null;
  while (outcome === null) {
    const partyTurns = countPartyTurns(turns);
    const speaker = partyForTurn(setup.partyOrder, partyTurns);
    turns.push(await partyTurn(ask, prompts, setup, turns, speaker, partyTurns));
    outcome = outcomeAfter(setup.partyOrder, turns, setup.budget);
    if (outcome !== null || setup.mediatorModel === null) continue;
    if (setup.mediatorSocial) {
      if (!prompts.social) throw new Error("a social mediator's run needs the social prompts");
      const model = setup.mediatorModel;
      const g = {
        ask,
        render: prompts.social,
        scenario: setup.scenario,
        model,
        seed: setup.seed,
        social: setup.mediatorSocial,
      };
      await socialMediatorGap(g, turns, decisions, partyTurns);
    } else await mediatorGap(ask, prompts, setup, setup.mediatorModel, turns, decisions, partyTurns);
  }
  return outcome;
}

/** The finished run as stored. */
function finishedRun(
  setup: RunSetup,
  outcome: Outcome,
  turns: Turn[],
  decisions: NonNullable<Run["mediator_decisions"]>,
): Run {
  return {
    id: setup.runId,
    condition_id: setup.conditionId,
    mediated: setup.mediatorModel !== null,
    mediator_backbone: setup.mediatorModel,
    simulator_backbone: setup.simulatorModel,
    outcome,
    party_order: setup.partyOrder,
    turns,
    ...(setup.mediatorModel !== null ? { mediator_decisions: decisions } : {}),
    config: setup.config,
    seed: setup.seed,
    created_at: new Date().toISOString(),
  };
}

/** The failed attempt for an error thrown while playing: an Abandon keeps its reason, anything else is unexpected. */
function failedAttempt(runId: string, err: unknown, stats: CallStats): RunAttempt {
  if (err instanceof Abandon) return { ok: false, runId, reason: err.message, aborted: err.aborted, stats };
  return {
    ok: false,
    runId,
    reason: `unexpected error: ${(err as Error).message}`,
    aborted: false,
    stats,
  };
}

export async function simulateRun(
  llm: Llm,
  prompts: SimulationPrompts,
  setup: RunSetup,
  options: { signal?: AbortSignal } = {},
): Promise<RunAttempt> {
  const stats = emptyStats();
  const turns: Turn[] = [];
  const decisions: NonNullable<Run["mediator_decisions"]> = [];
  const ask = runAsker(llm, setup.runId, stats, options.signal);
  try {
    const outcome = await playRun(ask, prompts, setup, turns, decisions);
    return { ok: true, run: finishedRun(setup, outcome, turns, decisions), stats };
  } catch (err) {
    return failedAttempt(setup.runId, err, stats);
  }
}
