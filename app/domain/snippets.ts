/**
 * Snippet segmentation for human validation (spec: "Human validation → Snippet").
 * A snippet starts at each turn of the party that speaks first in the cyclic order and runs
 * to the turn before its next such turn; mediator turns belong to the snippet they fall in.
 */
export interface SnippetTurn {
  turnId: number;
  role: "party" | "mediator";
  speaker: string;
}

export interface SnippetSpan {
  /** 1-based position of the snippet in its run. */
  position: number;
  startTurn: number;
  endTurn: number;
  isLast: boolean;
  /** Fewer party turns than parties: the run ended mid-exchange. */
  isPartial: boolean;
}

export function segmentSnippets(turns: SnippetTurn[], partyOrder: string[]): SnippetSpan[] {
  if (turns.length === 0) return [];
  const opener = partyOrder[0];
  // Boundaries are the opener's turns; any turns before the first opener turn join snippet 1.
  const starts = turns.filter((t, i) => i === 0 || (t.role === "party" && t.speaker === opener)).map((t) => t.turnId);
  const lastTurnId = turns[turns.length - 1].turnId;
  return starts.map((startTurn, i) => {
    const endTurn = i + 1 < starts.length ? starts[i + 1] - 1 : lastTurnId;
    const partyTurns = turns.filter((t) => t.turnId >= startTurn && t.turnId <= endTurn && t.role === "party").length;
    return {
      position: i + 1,
      startTurn,
      endTurn,
      isLast: i === starts.length - 1,
      isPartial: partyTurns < partyOrder.length,
    };
  });
}
