/**
 * The ok replies one client has looked up, by cache key, in front of the llm_calls lookup: a
 * benchmark asks the same request many times over (every mediator's run opens like the shared
 * unmediated run), and each repeat would otherwise read the row again. Only rows read from the
 * database are kept, so a remembered reply is exactly what the row holds (its spend added up
 * over tries); a step recorded under a key forgets it, so a failed retry is never answered from
 * memory. The caller still validates the reply against its own schema. The oldest entries go
 * first once `limit` is reached.
 */
import type { Db } from "../db.server.ts";
import { findOkReply, type OkReply } from "../models/llm-call.server.ts";

export interface ReplyMemory {
  /** The stored ok reply for this key: from memory, else from the database (then remembered). */
  find(key: string): Promise<OkReply | undefined>;
  /** Drops the key: a new outcome is being recorded under it. */
  forget(key: string): void;
  readonly size: number;
}

export const DEFAULT_REPLY_MEMORY = 20_000;

export function replyMemory(db: Db, limit = DEFAULT_REPLY_MEMORY): ReplyMemory {
  const replies = new Map<string, OkReply>();
  return {
    async find(key) {
      const known = replies.get(key);
      if (known) return known;
      const row = await findOkReply(db, key);
      if (!row) return undefined;
      if (replies.size >= limit) replies.delete(replies.keys().next().value!);
      replies.set(key, row);
      return row;
    },
    forget: (key) => void replies.delete(key),
    get size() {
      return replies.size;
    },
  };
}
