/**
 * Field problems in words a crowd worker reads: the problems keep their paths (the task page
 * places each at its field by path), but a message shown to a worker names no internal field
 * ("item: Required" became "The item number is missing").
 */

export interface PathProblem {
  path: string;
  message: string;
}

const FIELD_WORDS: Record<string, string> = {
  query: "the link",
  study: "the study number",
  item: "the item number",
  assignmentId: "the assignment ID",
  hitId: "the HIT ID",
  workerId: "your worker ID",
  turkSubmitTo: "the address your answer goes back to on Mechanical Turk",
  PROLIFIC_PID: "your Prolific ID",
  STUDY_ID: "the Prolific study ID",
  SESSION_ID: "the Prolific session ID",
  payload: "your answer",
  kind: "the kind of answer",
  choice: "your choice",
  topics: "the topic answers",
  clientToken: "this page's form",
  secondsOnTask: "the time spent on the task",
  reason: "the reason",
  note: "your note",
  comment: "your comment",
  form: "the form",
};

/** What a field path names, in words: known fields by name, a topic's score or position by what it is. */
export function fieldWords(path: string): string {
  if (path === "") return "your answer";
  const parts = path.split(".");
  if (parts[0] === "topics" && parts.length >= 2) {
    if (parts[2] === "score") return "the agreement score for a topic";
    if (parts[2] === "positions") return "a party's position on a topic";
    if (parts[2] === "carriedForward") return "whether a topic's score carries over";
    return "a topic's answer";
  }
  return FIELD_WORDS[parts[0]] ?? "part of your answer";
}

/** zod's stock messages in plain words; our own messages (already sentences) are kept. */
export function plainMessage(message: string): string {
  if (message === "Required") return "is missing";
  if (/^Expected .*, received /.test(message)) return "has the wrong kind of value";
  if (/^Invalid enum value/.test(message) || /^Invalid literal value/.test(message)) return "is not one of the choices";
  if (/^Unrecognized key/.test(message)) return "holds something unexpected";
  if (/^Invalid input/.test(message)) return "is not valid";
  if (/^String must contain at most/.test(message)) return "is too long";
  if (/^String must contain at least/.test(message)) return "is too short";
  // Our own short rules ("a positive whole number", "1–64 letters, …") say what the value must be.
  if (/^(a |an |\d)/.test(message) && !/\b(is|are)\b/.test(message)) return `must be ${message}`;
  return message;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** One problem as a sentence without its path: "The item number is missing." */
export function plainProblem(p: PathProblem): string {
  // A message that opens with its own field's name ("SESSION_ID is missing") drops it for the words.
  const own = p.path !== "" && p.message.startsWith(`${p.path} `) ? p.message.slice(p.path.length + 1) : p.message;
  const message = plainMessage(own);
  const field = fieldWords(p.path);
  return sentence(/^(is|are|has|holds|must|still) /.test(message) ? `${field} ${message}` : `${field}: ${message}`);
}
