/**
 * Checks on a bundle file before anything reads its records: its bytes are UTF-8, its JSON nests
 * no deeper than MAX_BUNDLE_DEPTH, and every string in it is well-formed Unicode. Each failure is
 * a problem naming where it is, never a crash or a silently replaced character: the checks that
 * follow (zod, canonicalJson, the cross-record checks) recurse, and SQLite would store a lone
 * surrogate as U+FFFD.
 */
import type { BundleProblem } from "./bundle-checks.ts";

/**
 * Deepest nesting of arrays and objects a bundle may hold, counting the bundle itself as 1. The
 * format's own records reach about 8 (a per-turn judge output); the rest is room for run configs.
 */
export const MAX_BUNDLE_DEPTH = 64;

export interface Utf8Failure {
  /** 0-based offset of the first byte that is not part of well-formed UTF-8. */
  offset: number;
  /** 1-based line (counting LF bytes before the offset) and byte column on that line. */
  line: number;
  column: number;
  message: string;
}

/**
 * Bytes of the sequence a lead byte starts (0 for a byte that cannot lead), and the allowed range of its second byte.
 */
function leadOf(b: number): { length: number; low: number; high: number } {
  if (b <= 0x7f) return { length: 1, low: 0, high: 0 };
  if (b >= 0xc2 && b <= 0xdf) return { length: 2, low: 0x80, high: 0xbf };
  if (b === 0xe0) return { length: 3, low: 0xa0, high: 0xbf }; // no overlong forms
  if (b === 0xed) return { length: 3, low: 0x80, high: 0x9f }; // no UTF-16 surrogates
  if (b >= 0xe1 && b <= 0xef) return { length: 3, low: 0x80, high: 0xbf };
  if (b === 0xf0) return { length: 4, low: 0x90, high: 0xbf };
  if (b === 0xf4) return { length: 4, low: 0x80, high: 0x8f }; // nothing above U+10FFFF
  if (b >= 0xf1 && b <= 0xf3) return { length: 4, low: 0x80, high: 0xbf };
  return { length: 0, low: 0, high: 0 };
}

/** The offset of the first ill-formed byte (Unicode's table of well-formed UTF-8 byte sequences), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = leadOf(bytes[i]);
    if (lead.length === 0) return i;
    for (let k = 1; k < lead.length; k++) {
      const b = bytes[i + k];
      const [low, high] = k === 1 ? [lead.low, lead.high] : [0x80, 0xbf];
      // A truncated or broken sequence is reported at its lead byte, where a reader's decoder fails.
      if (b === undefined || b < low || b > high) return i;
    }
    i += lead.length;
  }
  return -1;
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ");

/** Decodes UTF-8 strictly (a leading byte-order mark is dropped); a failure says where, by byte offset and line. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { failure: Utf8Failure } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    const offset = Math.max(firstInvalidUtf8(bytes), 0);
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset; i++) {
      if (bytes[i] === 0x0a) {
        line += 1;
        lineStart = i + 1;
      }
    }
    const column = offset - lineStart + 1;
    const shown = hex(bytes.subarray(offset, Math.min(offset + 4, bytes.length)));
    return {
      failure: {
        offset,
        line,
        column,
        message: `invalid UTF-8 at byte ${offset} (line ${line}, byte ${column} of the line: ${shown}); save the file as UTF-8`,
      },
    };
  }
}

// A UTF-16 surrogate without its partner: JSON's \ud800 escapes make them, UTF-8 cannot store them.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function loneSurrogate(s: string): string | null {
  const m = LONE_SURROGATE.exec(s);
  return m ? `\\u${m[0].charCodeAt(0).toString(16)}` : null;
}

const MAX_SHAPE_PROBLEMS = 20;

interface Visit {
  value: unknown;
  depth: number;
  key: string | number | null;
  parent: Visit | null;
}

/** The JSON path of a visit, built only for a problem (most values never need theirs). */
function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let v: Visit | null = visit; v && v.key !== null; v = v.parent) path.push(v.key);
  return path.reverse();
}

/**
 * Walks parsed JSON without recursion (so any depth JSON.parse accepts is safe here): reports the
 * first place nested deeper than MAX_BUNDLE_DEPTH and every key or string holding a lone surrogate.
 */
export function checkJsonShape(root: unknown, maxDepth = MAX_BUNDLE_DEPTH): BundleProblem[] {
  const problems: BundleProblem[] = [];
  const stack: Visit[] = [{ value: root, depth: 1, key: null, parent: null }];
  let tooDeep = false;
  while (stack.length > 0 && problems.length < MAX_SHAPE_PROBLEMS) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === "string") {
      const lone = loneSurrogate(value);
      if (lone)
        problems.push({
          path: pathOf(visit),
          message: `a string holds the lone UTF-16 surrogate ${lone}, which is not a character (UTF-8 cannot store it)`,
        });
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (visit.depth > maxDepth) {
      if (!tooDeep)
        problems.push({
          path: pathOf(visit),
          message: `nested deeper than ${maxDepth} levels of arrays and objects (a bundle may nest at most ${maxDepth})`,
        });
      tooDeep = true;
      continue;
    }
    const depth = visit.depth + 1;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth, key: i, parent: visit });
      continue;
    }
    const keys = Object.keys(value);
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k];
      const child: Visit = { value: (value as Record<string, unknown>)[key], depth, key, parent: visit };
      const lone = loneSurrogate(key);
      if (lone)
        problems.push({
          path: pathOf(child),
          message: `a key holds the lone UTF-16 surrogate ${lone}, which is not a character (UTF-8 cannot store it)`,
        });
      stack.push(child);
    }
  }
  return problems;
}
