/**
 * A draft save (useTaskPosting's fetcher, `intent=draft`) changes nothing a page shows: the draft's
 * state comes from the fetcher's own answer, and neither the user nor the item's data moves. So
 * after one, the page's loaders are not run again — Remix would otherwise follow every autosave
 * with a GET of the whole page's data. Every other post revalidates as Remix decides.
 */
import type { ShouldRevalidateFunction } from "@remix-run/react";

export const skipRevalidationAfterDraft: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "draft" ? false : defaultShouldRevalidate;

/** A task item's page, or the "next item" step between two of them. */
const TASK_FLOW = /^\/annotate\/\d+\/(items\/\d+|next)$/;

/**
 * The root loader's data is who is signed in. Moving from one task item to the next (a submit, a skip, an undo, the
 * next step) cannot change that, so the root loader is not run again there: each item then costs the browser's one
 * GET of the item route's data alone. A session that ended meanwhile sends the item's loader to the login page, which
 * is outside the task flow and reloads the root's data as usual.
 */
export const rootRevalidation: ShouldRevalidateFunction = (args) => {
  const { currentUrl, nextUrl, formAction } = args;
  const withinTasks =
    TASK_FLOW.test(currentUrl.pathname) &&
    TASK_FLOW.test(nextUrl.pathname) &&
    (formAction === undefined || TASK_FLOW.test(new URL(formAction, currentUrl).pathname));
  return withinTasks ? false : skipRevalidationAfterDraft(args);
};
