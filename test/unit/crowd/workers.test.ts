import { describe, expect, it } from "vitest";
import { findOrCreateCrowdWorker } from "../../../app/server/crowd/workers.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";

describe("crowd workers", () => {
  it("are created once per channel and worker id, and a bad worker id is refused", () => {
    const t = tempDb();
    try {
      const worker = findOrCreateCrowdWorker(t.db, "mturk", "A1B2C3");
      expect(findOrCreateCrowdWorker(t.db, "mturk", "A1B2C3")).toBe(worker);
      expect(findOrCreateCrowdWorker(t.db, "link", "A1B2C3")).not.toBe(worker);
      expect(() => findOrCreateCrowdWorker(t.db, "mturk", "<script>")).toThrow(/worker id/);
    } finally {
      t.cleanup();
    }
  });
});
