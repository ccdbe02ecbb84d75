/**
 * The task types' ids. One string per task type, used as the study type, the study item kind and
 * the label payload's `kind` alike (and as the file name of its guidelines and MTurk template).
 * Kept apart from the registry so the label schemas and answer parsers can name their kind
 * without importing the definitions that import them.
 */
export const CONSENSUS_SNIPPET = "consensus-snippet" as const;
export const AB_REACTIVENESS = "ab-reactiveness" as const;

export const TASK_TYPE_IDS = [CONSENSUS_SNIPPET, AB_REACTIVENESS] as const;
export type TaskTypeId = (typeof TASK_TYPE_IDS)[number];

export function isTaskTypeId(value: unknown): value is TaskTypeId {
  return (TASK_TYPE_IDS as readonly unknown[]).includes(value);
}
