/** An annotator's flag on an item as the study dashboard lists it (built by annotation/dashboard-flags.server.ts). */

export interface FlagItemLink {
  href: string;
  text: string;
}

export interface FlagView {
  id: number;
  itemId: number;
  /** The item's place in the study (1-based, as the dashboard counts). */
  position: number;
  annotatorName: string;
  comment: string;
  createdAt: string;
  resolvedAt: string | null;
  /** Where an admin looks at what was flagged: the run (at the snippet's first turn), or a pair's two runs. */
  links: FlagItemLink[];
}

export interface FlagsPanelData {
  flags: FlagView[];
  open: number;
  resolved: number;
  showResolved: boolean;
}

/** The run viewer's links for a flagged item: a snippet's run at its first turn, or both runs of an A/B pair. */
export function flagItemLinks(item: {
  runId: string | null;
  startTurn: number | null;
  snippetPosition: number | null;
  pairRuns: [string, string] | null;
}): FlagItemLink[] {
  const run = (id: string, anchor = "") => `/runs/${encodeURIComponent(id)}${anchor}`;
  if (item.pairRuns)
    return [
      { href: run(item.pairRuns[0]), text: "conversation A" },
      { href: run(item.pairRuns[1]), text: "conversation B" },
    ];
  if (!item.runId) return [];
  const anchor = item.startTurn === null ? "" : `#turn-${item.startTurn}`;
  return [
    {
      href: run(item.runId, anchor),
      text: item.snippetPosition === null ? "run" : `run, snippet ${item.snippetPosition}`,
    },
  ];
}
