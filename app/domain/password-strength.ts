/**
 * A minimal password check for every place a password is set (admin create and reset): long
 * enough, not one of the commonest passwords (with or without digits and symbols around it or
 * letters swapped for look-alike digits), not one character or a short pattern repeated, not a
 * straight run of the alphabet, the digits or a keyboard row, and not mostly the username.
 * It is a floor against guessing, not a measure of strength.
 */
import { COMMON_PASSWORDS } from "./common-passwords.ts";

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

const COMMON = new Set(COMMON_PASSWORDS);

/** Runs a password may not be part of, forwards or backwards. */
const SEQUENCES = [
  "abcdefghijklmnopqrstuvwxyz",
  "01234567890123456789",
  "qwertyuiopasdfghjklzxcvbnm",
  "qwertzuiopasdfghjklyxcvbnm",
  "azertyuiopqsdfghjklmwxcvbn",
  "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p",
];

const LOOK_ALIKES: Record<string, string> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "@": "a",
  $: "s",
  "!": "i",
};

/** The password's stem: lower case, without the digits and symbols people put before and after a word. */
function stem(lower: string): string {
  return lower.replace(/^[^a-z]+(?=[a-z])/, "").replace(/(?<=[a-z])[^a-z]+$/, "");
}

const unLeet = (text: string) => [...text].map((c) => LOOK_ALIKES[c] ?? c).join("");

function isCommon(lower: string): boolean {
  const candidates = [lower, stem(lower), unLeet(stem(lower)), stem(unLeet(lower))];
  return candidates.some((c) => COMMON.has(c) || COMMON.has(c.match(/^(.+?)\1+$/)?.[1] ?? ""));
}

const isRepeated = (lower: string) => /^(.{1,5})\1+$/s.test(lower);

function isSequence(lower: string): boolean {
  return SEQUENCES.some((run) => run.includes(lower) || [...run].reverse().join("").includes(lower));
}

/** Mostly the username: fewer than 6 characters left once it is taken out. */
function isMostlyUsername(lower: string, username: string | undefined): boolean {
  const name = username?.trim().toLowerCase();
  if (!name) return false;
  return lower.split(name).join("").length < 6;
}

/** What is wrong with `password`, or null when it passes. */
export function passwordProblem(password: string, context: { username?: string } = {}): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `at most ${PASSWORD_MAX_LENGTH} characters`;
  const lower = password.normalize("NFKC").toLowerCase();
  if (isRepeated(lower)) return "must not be one character or a short pattern repeated";
  if (isSequence(lower)) return "must not be a run of letters, digits or keys in a row";
  if (isCommon(lower)) return "is one of the most common passwords";
  if (isMostlyUsername(lower, context.username)) return "must not be mostly the username";
  return null;
}
