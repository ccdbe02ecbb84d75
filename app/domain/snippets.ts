/**
 * Snippet segmentation for human validation (spec: "Human validation → Snippet").
 * A snippet starts at each turn of the party that speaks first in the cyclic order and runs
 * to the turn before its next such turn; mediator turns belong to the snippet they fall in.
 * A free-order run has no round to follow, so its snippets hold as many party turns as the run
 * has parties (what one round holds in a cyclic run): a new one starts at party turn n + 1,
 * 2n + 1, … (docs/formats.md, "Turn order").
 */
import type { TurnOrder } from "./bundle.ts";

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

export function segmentSnippets(
  turns: SnippetTurn[],
  partyOrder: string[],
  turnOrder: TurnOrder = "cyclic",
): SnippetSpan[] {
  if (turns.length === 0) return [];
  const starts = turnOrder === "free" ? freeStarts(turns, partyOrder.length) : cyclicStarts(turns, partyOrder[0]);
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

/** Boundaries are the opener's turns; any turns before the first opener turn join snippet 1. */
function cyclicStarts(turns: SnippetTurn[], opener: string): number[] {
  return turns.filter((t, i) => i === 0 || (t.role === "party" && t.speaker === opener)).map((t) => t.turnId);
}

/** Boundaries are every n-th party turn after the first n; turns before the first party turn join snippet 1. */
function freeStarts(turns: SnippetTurn[], parties: number): number[] {
  const starts: number[] = [];
  let partyTurns = 0;
  turns.forEach((t, i) => {
    const opensRound = t.role === "party" && partyTurns > 0 && partyTurns % parties === 0;
    if (i === 0 || opensRound) starts.push(t.turnId);
    if (t.role === "party") partyTurns += 1;
  });
  return starts;
}
