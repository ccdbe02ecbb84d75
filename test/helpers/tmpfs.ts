/**
 * A real, tiny file system that fills up: a tmpfs mounted for one test. Only root may mount, so
 * `mountTinyTmpfs` returns null elsewhere (or where mounting is not allowed, as in some
 * containers) and the test skips; `cleanup` unmounts and removes the mount point.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TinyTmpfs {
  dir: string;
  /** Writes a filler file until the file system refuses (ENOSPC): nothing is free after this. */
  fill: () => void;
  /** Deletes the filler: the space is free again. */
  free: () => void;
  cleanup: () => void;
}

/** Why a tmpfs cannot be had here, or null when it can (root, and mount works). */
export function tmpfsUnavailable(): string | null {
  if (process.platform !== "linux") return "tmpfs needs Linux";
  if (process.getuid?.() !== 0) return "mounting a tmpfs needs root";
  return null;
}

export function mountTinyTmpfs(sizeBytes: number): TinyTmpfs | null {
  if (tmpfsUnavailable()) return null;
  const dir = mkdtempSync(join(tmpdir(), "socrates-tmpfs-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${sizeBytes}`, "tmpfs", dir], { encoding: "utf8" });
  if (mounted.status !== 0) {
    rmdirSync(dir);
    return null;
  }
  const filler = join(dir, "filler");
  const fill = () => {
    const fd = openSync(filler, "a");
    try {
      // Big blocks, then small ones for the last bytes.
      for (const size of [1 << 16, 512, 1]) {
        const block = Buffer.alloc(size, 1);
        try {
          for (;;) writeSync(fd, block);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
        }
      }
    } finally {
      closeSync(fd);
    }
  };
  return {
    dir,
    fill,
    free: () => rmSync(filler, { force: true }),
    cleanup: () => {
      // A process still holding a file there makes umount refuse; detach it lazily then.
      if (spawnSync("umount", [dir]).status !== 0) spawnSync("umount", ["-l", dir]);
      rmdirSync(dir);
    },
  };
}
