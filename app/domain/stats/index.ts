/** Statistics engine: inter-rater agreement, bootstrap intervals, correlations. Pure, no I/O. */
export {
  krippendorffAlpha,
  REASON_NO_PAIRABLE,
  REASON_NO_VARIATION,
  type AlphaLevel,
  type AlphaResult,
  type RatingValue,
} from "./krippendorff.ts";
export {
  bootstrapAlpha,
  bootstrapAlphaSamples,
  quantileSorted,
  DEFAULT_DRAWS,
  DEFAULT_SEED,
  type AlphaBootstrap,
} from "./bootstrap.ts";
export {
  pearson,
  spearman,
  kendallTauB,
  rankAverage,
  type PearsonResult,
} from "./correlation.ts";
export { SPEARMAN_EXACT_MAX_N, type PValueMethod } from "./rank-exact-p.ts";
export { createRng, randomInt } from "./rng.ts";
export { StatsInputError } from "./errors.ts";
export {
  williamsT,
  zouOverlappingCi,
  type OverlappingCorrelations,
} from "./dependent-correlation.ts";
export {
  pairedDifferenceBootstrap,
  pairedDifferenceSamples,
  type ClusteredTriple,
} from "./paired-bootstrap.ts";
