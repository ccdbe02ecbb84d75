/** Where ProMediate's six real cases are: ../shared/promediate-cases/ beside the checkout (never committed here). */
import { resolve } from "node:path";

export const CASES_DIR = resolve(import.meta.dirname, "../../../../shared/promediate-cases");
export const CASE_NAMES = ["flagship", "francis", "hmo", "ias", "river", "williams"] as const;
