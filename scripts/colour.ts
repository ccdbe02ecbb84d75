/**
 * Terminal colour for the CLI's errors, warnings, successes and progress, with no dependency.
 * Off when the stream is not a terminal, when NO_COLOR is set (no-color.org) or after `--no-color`;
 * FORCE_COLOR (any value but "0" or "false") turns it on even for a pipe. NO_COLOR and --no-color win.
 */

type Env = Record<string, string | undefined>;
type Stream = { isTTY?: boolean };

/** Set by the program's `--no-color` option before a command runs. */
let disabledByFlag = false;

export function disableColour(): void {
  disabledByFlag = true;
}

/** Whether text written to `stream` gets colour codes. */
export function colourEnabled(stream: Stream, env: Env = process.env): boolean {
  if (disabledByFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return Boolean(stream.isTTY);
}

export type Paint = (text: string) => string;

export interface Palette {
  error: Paint;
  warning: Paint;
  success: Paint;
  progress: Paint;
}

const sgr =
  (on: number, enabled: boolean): Paint =>
  (text) =>
    enabled ? `\x1b[${on}m${text}\x1b[39m` : text;

/** The colours for text written to `stream` (plain text when colour is off). */
export function paletteFor(stream: Stream, env: Env = process.env): Palette {
  const on = colourEnabled(stream, env);
  return { error: sgr(31, on), warning: sgr(33, on), success: sgr(32, on), progress: sgr(36, on) };
}
