import { describe, expect, it } from "vitest";
import { rootRevalidation } from "../../../app/components/tasks/draft-revalidation.ts";

type Args = Parameters<typeof rootRevalidation>[0];
const base = "http://app.test";

function args(from: string, to: string, o: { formAction?: string; intent?: string } = {}): Args {
  const formData = o.intent ? new FormData() : undefined;
  if (o.intent) formData?.set("intent", o.intent);
  return {
    currentUrl: new URL(from, base),
    nextUrl: new URL(to, base),
    currentParams: {},
    nextParams: {},
    formAction: o.formAction,
    formMethod: o.formAction ? "POST" : undefined,
    formData,
    defaultShouldRevalidate: true,
  } as Args;
}

describe("the root loader's revalidation (who is signed in)", () => {
  it("is skipped from one task item to the next: a submit, the next step, an undo, a link", () => {
    const submit = { formAction: "/annotate/4/items/7", intent: "submit" };
    expect(rootRevalidation(args("/annotate/4/items/7", "/annotate/4/items/8", submit))).toBe(false);
    expect(rootRevalidation(args("/annotate/4/items/7?from=mine", "/annotate/4/items/8", submit))).toBe(false);
    expect(rootRevalidation(args("/annotate/4/next", "/annotate/4/items/8", { formAction: "/annotate/4/next" }))).toBe(
      false,
    );
    expect(rootRevalidation(args("/annotate/4/items/8", "/annotate/4/items/7"))).toBe(false);
  });

  it("runs when the flow leaves the task pages or a post goes elsewhere (logout, login, settings)", () => {
    expect(rootRevalidation(args("/annotate/4/items/7", "/login?next=%2Fannotate"))).toBe(true);
    expect(rootRevalidation(args("/annotate/4/items/7", "/annotate/4/mine"))).toBe(true);
    expect(rootRevalidation(args("/annotate/4/items/7", "/annotate/4/items/7", { formAction: "/logout" }))).toBe(true);
    expect(rootRevalidation(args("/annotate", "/annotate/4/items/7"))).toBe(true);
  });

  it("still skips after a draft save anywhere", () => {
    expect(rootRevalidation(args("/x", "/x", { formAction: "/x", intent: "draft" }))).toBe(false);
  });
});
