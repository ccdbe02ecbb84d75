/**
 * What the New-study form offers a task type beyond a count of available units (filled by the type's server handler).
 */

/** A simulator backbone and how many stored A/B pairs its runs play. */
export interface BackboneCount {
  backbone: string;
  pairs: number;
}

/** A study gold items can be drawn from. */
export interface GoldSourceChoice {
  id: number;
  name: string;
  pool: string;
}

export interface StudyFormChoices {
  /** Consensus studies: the consensus studies gold snippets can come from. */
  goldSources?: GoldSourceChoice[];
  /** Consensus studies: the topic-localized judge backbones an active study can calibrate (issue 33). */
  judges?: string[];
  /** A/B studies: the stored pairs' simulator backbones, to choose from. */
  backbones?: BackboneCount[];
}
