import { describe, expect, it } from "vitest";
import { findOrCreateCrowdWorker } from "../../../app/server/crowd/workers.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";

describe("crowd workers", () => {
  it("are created once per channel and worker id, and a bad worker id is refused", async () => {
    const t = await tempDb();
    try {
      const worker = await findOrCreateCrowdWorker(t.db, "mturk", "A1B2C3");
      expect(await findOrCreateCrowdWorker(t.db, "mturk", "A1B2C3")).toBe(worker);
      expect(await findOrCreateCrowdWorker(t.db, "link", "A1B2C3")).not.toBe(worker);
      await expect(findOrCreateCrowdWorker(t.db, "mturk", "<script>")).rejects.toThrow(/worker id/);
    } finally {
      await t.cleanup();
    }
  });
});
