/**
 * What a crowd worker id looks like on every channel (MTurk WorkerId, Prolific PID, a link's worker), said the same way
 * everywhere it is checked.
 */
export const WORKER_ID_PATTERN = "[A-Za-z0-9_\\-]{1,64}";
export const WORKER_ID_FORMAT = "1–64 letters, digits, '_' or '-' (no spaces), e.g. A1B2C3D4E5F6G7";

export function isWorkerId(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(value);
}
