/**
 * ProMediate's conversation log (`conversation.txt`), read as its own scripts read it. The file
 * holds the live printout of a conversation, then a summary after the line
 * "📋 Conversation Summary:" with one `<prefix>: <speaker>: <speech>` line per turn (the prefix is
 * "🔄 Turn <n>", the speech is quoted). An utterance with line breaks in it goes on over the next
 * lines (continuation lines). ProMediate's evaluation scripts split each non-blank line at its first
 * two ": " and skip a line that does not split, so they count some continuation lines as turns of
 * their own and drop the rest; its attitude and agreement records have one entry per counted line.
 * This reader keeps each turn whole and remembers which counted lines belong to it.
 */

export const SUMMARY_HEADER = "📋 Conversation Summary:";

/** A turn's first line: "🔄 Turn 3: Bradley: …" (any prefix ending in "Turn <n>"). */
const TURN_HEAD = /^(\S*\s*Turn (\d+)): (.+?): (.*)$/;

export interface LogProblem {
  /** 1-based line in the file; 0 for the file as a whole. */
  line: number;
  message: string;
}

export interface LogTurn {
  /** The line of the turn's first line. */
  line: number;
  speaker: string;
  /** The whole utterance, its line breaks kept, without the quotes the log put around it. */
  utterance: string;
  /** Indexes (0-based, in file order) of the lines ProMediate's scripts counted as turns that belong to this turn. */
  counted: number[];
}

export interface ParsedLog {
  turns: LogTurn[];
  /** How many lines ProMediate's scripts count as turns (its records have one entry more: the start). */
  countedLines: number;
  /** Whether the file had the summary header (without it, the whole file is read as the summary). */
  hadHeader: boolean;
  problems: LogProblem[];
  warnings: LogProblem[];
}

/** What ProMediate's `line.strip().split(": ", 2)` accepts: a line with at least two ": " in it. */
function countedByReference(line: string): boolean {
  const stripped = line.trim();
  const first = stripped.indexOf(": ");
  return first >= 0 && stripped.indexOf(": ", first + 2) >= 0;
}

function unquote(text: string): string {
  const trimmed = text.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1).trim()
    : trimmed;
}

/** Reads the summary of a conversation log: its turns, what ProMediate's scripts counted, and what is wrong. */
export function parseConversationLog(text: string): ParsedLog {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const headerAt = lines.findIndex((l) => l.trim() === SUMMARY_HEADER);
  const start = headerAt + 1;
  const problems: LogProblem[] = [];
  const warnings: LogProblem[] = [];
  const turns: (LogTurn & { body: string[] })[] = [];
  let countedLines = 0;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    const lineNo = i + 1;
    const head = TURN_HEAD.exec(line.trim());
    const counted = countedByReference(line);
    if (head) {
      const expected = turns.length + 1;
      if (Number(head[2]) !== expected)
        problems.push({ line: lineNo, message: `expected turn ${expected}, got "${head[1]}"` });
      turns.push({ line: lineNo, speaker: head[3].trim(), utterance: "", counted: [], body: [head[4]] });
    } else if (line.trim() !== "") {
      const current = turns.at(-1);
      if (!current) {
        problems.push({ line: lineNo, message: 'expected a turn line such as 🔄 Turn 1: <speaker>: "<speech>"' });
        continue;
      }
      current.body.push(line);
      if (counted)
        warnings.push({
          line: lineNo,
          message: `a continuation of turn ${turns.length} that ProMediate's scripts count as a turn of its own (two ": " in it); its record is read as part of turn ${turns.length}`,
        });
    } else turns.at(-1)?.body.push("");
    if (counted && turns.length > 0) turns[turns.length - 1].counted.push(countedLines);
    if (counted) countedLines += 1;
  }
  if (turns.length === 0)
    problems.push({
      line: 0,
      message: `no turns found${headerAt < 0 ? ` (and no "${SUMMARY_HEADER}" line)` : ` after "${SUMMARY_HEADER}"`}`,
    });
  const result = turns.map(({ body, ...turn }) => ({ ...turn, utterance: unquote(body.join("\n")) }));
  for (const turn of result)
    if (turn.utterance === "") problems.push({ line: turn.line, message: "the utterance is empty" });
  return { turns: result, countedLines, hadHeader: headerAt >= 0, problems, warnings };
}
