/**
 * Every LLM role, one folder each (app/llm-roles/<role>/: its prompt templates *.md, its stand-in
 * and its definition). LLM_ROLES, the configuration's role list, `socrates llm check` and the
 * stand-in's dispatch all come from this list. A new role: its folder, an import and an entry.
 */
import { baselineJudge } from "./baseline-judge/stand-in.ts";
import { emotionJudge } from "./emotion-judge/stand-in.ts";
import { evaluator } from "./evaluator/stand-in.ts";
import { mediator } from "./mediator/stand-in.ts";
import { miJudge } from "./mi-judge/stand-in.ts";
import { party } from "./party/stand-in.ts";
import { searcher } from "./searcher/stand-in.ts";
import { writer } from "./writer/stand-in.ts";

/** In the order the configuration and `socrates llm check` list them. */
export const LLM_ROLE_DEFINITIONS = [
  searcher,
  writer,
  party,
  mediator,
  evaluator,
  baselineJudge,
  miJudge,
  emotionJudge,
] as const;

export type LlmRole = (typeof LLM_ROLE_DEFINITIONS)[number]["id"];

/** Every role the benchmark configures a model for. */
export const LLM_ROLES = LLM_ROLE_DEFINITIONS.map((role) => role.id) as readonly LlmRole[] as readonly [
  LlmRole,
  ...LlmRole[],
];
