/** The task-type registry: one definition per id, and every part of the app that differs by task type reads it. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { templateVariables } from "../../../app/domain/crowd/mturk-template.ts";
import {
  labelPayloadSchema,
  TASK_TYPE_IDS,
  TASK_TYPES,
  UnknownTaskTypeError,
  checkLabel,
  taskType,
  taskTypeName,
} from "../../../app/task-types/registry.ts";
import { STUDY_TYPES } from "../../../app/domain/study-config.ts";
import { TASK_COMPONENTS, STUDY_TYPE_FORMS, TYPE_SECTIONS } from "../../../app/task-types/registry.tsx";
import { GUIDELINE_KINDS, templatesDir } from "../../../app/server/templates.server.ts";
import { TASK_SERVERS } from "../../../app/task-types/registry.server.ts";

const TEMPLATES = templatesDir();

describe("task-type registry", () => {
  it("holds one definition per id, under its own id, with a component for each", () => {
    expect(Object.keys(TASK_TYPES).sort()).toEqual([...TASK_TYPE_IDS].sort());
    for (const id of TASK_TYPE_IDS) {
      expect(TASK_TYPES[id].id).toBe(id);
      expect(taskType(id)).toBe(TASK_TYPES[id]);
      expect(typeof TASK_COMPONENTS[id]).toBe("function");
    }
    expect(Object.keys(TASK_COMPONENTS).sort()).toEqual([...TASK_TYPE_IDS].sort());
    expect(new Set(TASK_TYPE_IDS.map((id) => TASK_TYPES[id].displayName)).size).toBe(TASK_TYPE_IDS.length);
  });

  it("uses the id as study type, template name and label kind", () => {
    expect([...STUDY_TYPES]).toEqual([...TASK_TYPE_IDS]);
    expect([...GUIDELINE_KINDS]).toEqual([...TASK_TYPE_IDS]);
    expect(labelPayloadSchema.options.map((o) => o.shape.kind.value).sort()).toEqual([...TASK_TYPE_IDS].sort());
    for (const id of TASK_TYPE_IDS) expect(TASK_TYPES[id].templateName).toBe(id);
  });

  it("refuses an unknown id by name, and shows a stranger's raw string", () => {
    expect(() => taskType("snippet")).toThrow(UnknownTaskTypeError);
    expect(() => taskType("snippet")).toThrow(
      /unknown task type "snippet" \(known: consensus-snippet, ab-reactiveness\)/,
    );
    expect(taskTypeName("consensus-snippet")).toBe("Snippet consensus");
    expect(taskTypeName("ab-reactiveness")).toBe("A/B reactiveness");
    expect(taskTypeName("other")).toBe("other");
  });

  it("has shipped guidelines and an MTurk template that uses only the type's variables and all its required ones", () => {
    for (const id of TASK_TYPE_IDS) {
      const { mturk, templateName } = TASK_TYPES[id];
      expect(existsSync(join(TEMPLATES, templateName, "guidelines.md"))).toBe(true);
      const source = readFileSync(join(TEMPLATES, templateName, "mturk.html"), "utf8");
      const used = templateVariables(source);
      expect(used.filter((v) => !mturk.variables.includes(v))).toEqual([]);
      for (const required of mturk.requiredVariables) expect(used).toContain(required);
      for (const field of mturk.requiredFields) expect(source).toContain(field);
      expect(TASK_TYPES[id].defaultSecondsPerItem).toBeGreaterThan(0);
      expect(mturk.texts.title.length).toBeGreaterThan(0);
    }
  });

  it("checks a label with its own type's check", async () => {
    const scenario = {
      topics: [{ id: "T", name: "T", description: "", options: [{ label: "A", description: "" }] }],
      parties: [{ id: "P" }],
    };
    const context = { scenario: async () => scenario, previousLabel: async () => null };
    expect(await checkLabel({ kind: "ab-reactiveness", choice: "A" }, context)).toEqual([]);
    expect(await checkLabel({ kind: "consensus-snippet", topics: {} }, context)).toEqual([
      { path: "topics.T", message: 'topic "T" (T) has no label' },
    ]);
  });

  it("has every per-type handler for every type: server, New-study form, dashboard wording", () => {
    const serverHandlers = [
      "view",
      "available",
      "createFromForm",
      "dashboard",
      "dashboardView",
      "jsonItemFields",
      "taskPart",
    ] as const;
    expect(Object.keys(TASK_SERVERS).sort()).toEqual([...TASK_TYPE_IDS].sort());
    expect(Object.keys(STUDY_TYPE_FORMS).sort()).toEqual([...TASK_TYPE_IDS].sort());
    expect(Object.keys(TYPE_SECTIONS).sort()).toEqual([...TASK_TYPE_IDS].sort());
    for (const id of TASK_TYPE_IDS) {
      for (const handler of serverHandlers)
        expect(typeof TASK_SERVERS[id][handler], `${id} ${handler}`).toBe("function");
      expect(TASK_SERVERS[id].csv.header.length, `${id} csv`).toBeGreaterThan(0);
      expect(typeof TASK_SERVERS[id].csv.rows).toBe("function");
      expect(typeof STUDY_TYPE_FORMS[id].Fields).toBe("function");
      expect(STUDY_TYPE_FORMS[id].availability(3)).toContain("3");
      const { dashboard, resume } = TASK_TYPES[id];
      expect(dashboard.flaggedExcludedFrom.length).toBeGreaterThan(0);
      expect(dashboard.agreementUnits("expert")).toMatch(/^Units: /);
      expect(typeof resume).toBe("function");
    }
  });

  it("resumes a task from its own type's draft, else its own latest label, never another type's", () => {
    const consensus = { kind: "consensus-snippet" as const, topics: {} };
    const ab = { kind: "ab-reactiveness" as const, choice: "B" as const };
    expect(taskType("consensus-snippet").resume(consensus, null)).toBe(consensus);
    expect(taskType("consensus-snippet").resume(null, consensus)).toBe(consensus);
    expect(taskType("consensus-snippet").resume(ab, ab)).toBeNull();
    expect(taskType("consensus-snippet").resume({ topics: {} }, null)).toBeNull();
    expect(taskType("ab-reactiveness").resume({ choice: "A" }, ab)).toEqual({ kind: "ab-reactiveness", choice: "A" });
    expect(taskType("ab-reactiveness").resume({ choice: "C" }, ab)).toBe(ab);
    expect(taskType("ab-reactiveness").resume(null, consensus)).toBeNull();
  });

  it("parses an A/B answer without reading the scenario", async () => {
    const result = await taskType("ab-reactiveness").mturk.payloadFromAnswers({ "choice|B": { on: true } }, () => {
      throw new Error("not needed");
    });
    expect(result).toEqual({ ok: true, payload: { kind: "ab-reactiveness", choice: "B" }, itemId: null });
  });
});
