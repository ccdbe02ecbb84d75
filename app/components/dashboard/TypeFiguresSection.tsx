/**
 * The dashboard section that differs by task type: the type's own section from the registry
 * (consensus studies compare the evaluator with the experts, A/B studies show persona fidelity).
 */
import type { TaskTypeId } from "../../task-types/registry.ts";
import { TYPE_SECTIONS } from "../../task-types/registry.tsx";
import type { TypeFigures } from "./type-figures.ts";

export type { TypeFigures };

export function TypeFiguresSection({ kind, ...figures }: TypeFigures & { kind: TaskTypeId }) {
  const Section = TYPE_SECTIONS[kind];
  return <Section {...figures} />;
}
