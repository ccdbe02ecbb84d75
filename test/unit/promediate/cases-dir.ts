/**
 * Where ProMediate's six real cases are: ../shared/promediate-cases/ beside the checkout (never
 * committed here), or PROMEDIATE_CASES_DIR. Missing, they fail the tests loudly rather than skip them.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";

export const CASES_DIR = resolve(
  process.env.PROMEDIATE_CASES_DIR ?? resolve(import.meta.dirname, "../../../../shared/promediate-cases"),
);
if (!existsSync(resolve(CASES_DIR, "topics.json")))
  throw new Error(`ProMediate's cases are not at ${CASES_DIR}: put them there or set PROMEDIATE_CASES_DIR`);

export const CASE_NAMES = ["flagship", "francis", "hmo", "ias", "river", "williams"] as const;
