/** The stand-in answers by the role and template a request names in its headers, and refuses a request naming none. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_TEMPLATE, ROLE_HEADER, TEMPLATE_HEADER } from "../../../app/domain/llm/types.ts";
import { LLM_ROLES } from "../../../app/llm-roles/registry.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { ROLES_DIR } from "../../../app/server/pipeline/prompt-templates.server.ts";

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ respond: standInResponder() });
});
afterAll(() => mock.close());

async function ask(headers: Record<string, string>, content = "Reply with the word ok.") {
  const res = await fetch(`${mock.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ model: "stand-in", messages: [{ role: "user", content }] }),
  });
  const body = await res.json();
  const error = body.error?.message as string | undefined;
  return { status: res.status, content: body.choices?.[0]?.message?.content, error };
}

describe("the stand-in's dispatch", () => {
  it("answers HTTP 400 to a request naming no role, or a role or template it does not have", async () => {
    const none = await ask({});
    expect(none.status).toBe(400);
    expect(none.error).toMatch(/names no role \(header x-socrates-role: searcher \| writer \| party/);
    const unknown = await ask({ [ROLE_HEADER]: "poet" });
    expect(unknown).toMatchObject({ status: 400, error: expect.stringContaining('no responder for role "poet"') });
    const noTemplate = await ask({ [ROLE_HEADER]: "mediator" });
    expect(noTemplate.status).toBe(400);
    expect(noTemplate.error).toMatch(/role "mediator" has no template null .*mediator-when \| mediator-how/);
  });

  it("answers every registered role's connection check by its template, not by the prompt's words", async () => {
    for (const role of LLM_ROLES) {
      const answered = await ask({ [ROLE_HEADER]: role, [TEMPLATE_HEADER]: CHECK_TEMPLATE }, "anything at all");
      expect(answered).toMatchObject({ status: 200, content: "ok" });
    }
    expect(mock.requests.at(-1)).toMatchObject({ llmRole: LLM_ROLES.at(-1), template: CHECK_TEMPLATE });
  });

  it("serves only the roles it was given", async () => {
    const judges = await startMockLlm({ respond: standInResponder({ roles: ["mi-judge"] }) });
    try {
      const res = await fetch(`${judges.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", [ROLE_HEADER]: "party", [TEMPLATE_HEADER]: "party" },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hello" }] }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error.message).toContain("it answers mi-judge");
    } finally {
      await judges.close();
    }
  });
});

describe("the role folders", () => {
  it("are exactly the registered roles, each with at least one prompt template", () => {
    const folders = readdirSync(ROLES_DIR).filter((f) => statSync(join(ROLES_DIR, f)).isDirectory());
    expect(folders.sort()).toEqual([...LLM_ROLES].sort());
    for (const role of LLM_ROLES) {
      expect(
        readdirSync(join(ROLES_DIR, role)).some((f) => f.endsWith(".md")),
        role,
      ).toBe(true);
    }
  });
});
