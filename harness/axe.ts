/**
 * axe-core in a real page: injects node_modules/axe-core/axe.min.js into a playwright page (or frame)
 * and runs the WCAG 2.0/2.1/2.2 A and AA rules. The script is added with `evaluate`, not a <script>
 * tag, so the app's Content-Security-Policy (nonce-only scripts) neither blocks it nor reports it.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Frame, Page } from "playwright-core";
import { ROOT } from "./test-build.ts";

const AXE_SOURCE = readFileSync(resolve(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** One entry per failing node: its CSS selector and axe's summary of why it fails. */
  nodes: { target: string; summary: string }[];
}

/** The WCAG A/AA violations axe finds in the page as it is now. */
export async function axeViolations(page: Page | Frame): Promise<AxeViolation[]> {
  // Once per document: a page audited again (resized, another colour scheme) keeps the axe it was given.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      }[];
    }
    const results = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(" "), summary: n.failureSummary ?? "" })),
    }));
  }, WCAG_TAGS);
}

/** Violations as lines for a failure message: rule id, impact and each failing node's target. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n` +
        v.nodes.map((n) => `  ${n.target} — ${n.summary.replace(/\s+/g, " ").slice(0, 240)}`).join("\n"),
    )
    .join("\n");
}
