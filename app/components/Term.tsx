/**
 * A symbol or abbreviation on a research page, linked to its glossary entry. The link's title is
 * its accessible description (the symbol stays its name), so a keyboard or screen-reader user gets
 * the same explanation a mouse user sees on hover.
 */
import type { ReactNode } from "react";
import { glossaryAnchor, glossaryEntry, termKey } from "../domain/glossary.ts";

export function Term({ k, children }: { k: string; children?: ReactNode }) {
  const e = glossaryEntry(k);
  return (
    <a className="term" href={`/glossary#${glossaryAnchor(e.key)}`} title={`${e.name}: ${e.text}`} data-term={e.key}>
      {children ?? e.symbol}
    </a>
  );
}

/** A header's text as a `Term` when the glossary knows it (a metric id, a statistic), else as it is. */
export function TermOrText({ text }: { text: string }) {
  const key = termKey(text);
  return key === null ? text : <Term k={key}>{text}</Term>;
}
