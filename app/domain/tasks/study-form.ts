/** What the New-study form offers a task type beyond a count of available units (filled by the type's server handler). */

/** A simulator backbone and how many stored A/B pairs its runs play. */
export interface BackboneCount {
  backbone: string;
  pairs: number;
}

export interface StudyFormChoices {
  /** A/B studies: the stored pairs' simulator backbones, to choose from. */
  backbones?: BackboneCount[];
}
