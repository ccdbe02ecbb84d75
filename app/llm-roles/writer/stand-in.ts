/**
 * The writer's stand-in, by template: curation's scenario and weights (./stand-in-scenario.ts) and
 * the condition writer's new party, its weights and a longer history (./stand-in-probe.ts). A
 * repair request carries its first call's template.
 */
import { type LlmRoleDefinition, templateOf } from "../stand-in-request.ts";
import { probeWriterReply } from "./stand-in-probe.ts";
import { curationWriterReply } from "./stand-in-scenario.ts";

const CURATION = ["curation-writer", "curation-writer-weights"] as const;
const PROBING = ["probe-three-party", "probe-party-weights", "probe-history"] as const;

export const writer = {
  id: "writer",
  standIn: (request) => {
    const template = templateOf(request, [...CURATION, ...PROBING]);
    return template === "curation-writer" || template === "curation-writer-weights"
      ? curationWriterReply(request, template)
      : probeWriterReply(request, template);
  },
} as const satisfies LlmRoleDefinition;
