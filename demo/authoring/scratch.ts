/** What the demo's recording scripts share: a scratch database and the offline stand-in, cleaned up afterwards. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Db, openDatabase } from "../../app/server/db.server.ts";
import { startMockLlm, type Responder } from "../../app/server/llm/stand-in/endpoint.server.ts";

/** Runs `record` on a fresh database file with the stand-in answering at `url`; removes both after. */
export async function withScratchStandIn<T>(
  prefix: string,
  respond: Responder,
  record: (db: Db, url: string) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const mock = await startMockLlm({ respond, latencyMs: 0 });
  const db = await openDatabase(join(dir, "demo.db"));
  try {
    return await record(db, mock.url);
  } finally {
    db.$client.close();
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
