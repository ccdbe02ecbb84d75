/**
 * A draft save (useTaskPosting's fetcher, `intent=draft`) changes nothing a page shows: the draft's
 * state comes from the fetcher's own answer, and neither the user nor the item's data moves. So
 * after one, the page's loaders are not run again — Remix would otherwise follow every autosave
 * with a GET of the whole page's data. Every other post revalidates as Remix decides.
 */
import type { ShouldRevalidateFunction } from "@remix-run/react";

export const skipRevalidationAfterDraft: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "draft" ? false : defaultShouldRevalidate;
