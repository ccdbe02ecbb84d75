/**
 * Output folders the CLI writes into (reports): never through a symbolic link. Someone who can
 * plant a link in the folder, or make the folder itself a link, would otherwise have the report
 * overwrite whatever file the link points to. `mturk export` is safe by refusing any folder that
 * is not new or empty and creating each file exclusively; a report may be rewritten in place, so
 * it refuses links instead: the folder is checked before anything is written, and each file is
 * opened without following a link (O_NOFOLLOW) in case one appears in between.
 */
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, readdirSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { FileSystemFullError, isStorageFull } from "./storage-full.server.ts";

/** The output folder or a file in it is a symbolic link (or otherwise not a plain place to write). */
export class OutputFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutputFolderError";
  }
}

const lstatOrNull = (path: string) => {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
};

/**
 * Refuses a folder that is a symbolic link, is not a folder, or holds a symbolic link; a folder not there yet is fine.
 */
export function checkOutputFolder(dir: string): void {
  const stat = lstatOrNull(dir);
  if (!stat) return;
  if (stat.isSymbolicLink())
    throw new OutputFolderError(
      `${resolve(dir)} is a symbolic link; refusing to write through it (give --out a real folder)`,
    );
  if (!stat.isDirectory()) throw new OutputFolderError(`${resolve(dir)} exists and is not a folder`);
  const links = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isSymbolicLink())
    .map((e) => e.name)
    .sort();
  if (links.length > 0) {
    throw new OutputFolderError(
      `${resolve(dir)} holds symbolic links (${links.join(", ")}); refusing to write where a link could send a file elsewhere (remove them or choose another --out folder)`,
    );
  }
}

/** A full disk's error with the file named (Node's ENOSPC does not carry the path), as writeOutputFile does. */
const asFull = (err: unknown, path: string): unknown =>
  isStorageFull(err) && !(err instanceof FileSystemFullError)
    ? new FileSystemFullError(resolve(path), (err as NodeJS.ErrnoException).code ?? "ENOSPC")
    : err;

/**
 * Writes a file in a checked folder, refusing a symbolic link (O_NOFOLLOW) or a file with other
 * hard links (writing would change them too); a full disk names the file, as writeOutputFile does.
 */
export function writeFileInFolder(path: string, content: string): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOOP")
      throw new OutputFolderError(`${resolve(path)} is a symbolic link; refusing to write through it`);
    throw asFull(err, path);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new OutputFolderError(`${resolve(path)} is not a plain file`);
    if (stat.nlink > 1)
      throw new OutputFolderError(`${resolve(path)} has other hard links; refusing to change them by writing it`);
    ftruncateSync(fd, 0);
    const data = Buffer.from(content, "utf8");
    for (let written = 0; written < data.length; ) written += writeSync(fd, data, written, data.length - written);
  } catch (err) {
    throw asFull(err, path);
  } finally {
    closeSync(fd);
  }
}
