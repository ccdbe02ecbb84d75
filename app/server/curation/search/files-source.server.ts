/**
 * The `files` source: a folder of seed reports a researcher collected (format:
 * app/domain/curation/seed-file.ts), for offline curation. Files are taken in name order; a
 * structured file is a seed as it stands, a free-text file is structured by the searcher's model
 * (one call, cached like any other).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import type { Domain } from "../../../domain/bundle.ts";
import { parseSeedFile, type SeedFile } from "../../../domain/curation/seed-file.ts";
import { seedReportSchema, type SeedReport } from "../../../domain/curation/seed.ts";
import type { Llm } from "../../../domain/llm/types.ts";
import { renderMessages } from "../../pipeline/prompt-templates.server.ts";

const SEED_FILE = /\.(md|markdown|txt)$/i;

/** A seed file's content is wrong; the message names the file. */
export class SeedFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SeedFileError";
  }
}

export interface SeedFileEntry {
  /** Absolute path: the seed's provenance, so a resumed curation does not read it twice. */
  path: string;
  /** Path under the folder, for messages. */
  name: string;
  parsed: SeedFile;
}

/** The folder's seed files (and its subfolders', one level down), in name order, parsed. */
export function readSeedFiles(dir: string): SeedFileEntry[] {
  const root = resolve(dir);
  let names: string[];
  try {
    names = readdirSync(root, { recursive: true, encoding: "utf8" });
  } catch (err) {
    throw new SeedFileError(
      `${dir}: cannot read the seed folder (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  return names
    .filter((name) => SEED_FILE.test(name) && name.split(/[\\/]/).length <= 2 && statSync(join(root, name)).isFile())
    .sort()
    .map((name) => {
      const path = join(root, name);
      const folder = dirname(relative(root, path));
      return {
        path,
        name,
        parsed: parseSeedFile(readFileSync(path, "utf8"), folder === "." ? undefined : basename(folder)),
      };
    });
}

/** A file's report: as written, or structured by the searcher's model from free text. */
export async function reportOfFile(
  llm: Llm,
  entry: SeedFileEntry,
  domain: Domain,
): Promise<{ report: SeedReport; model?: string }> {
  const parsed = entry.parsed;
  if (parsed.kind === "report") return { report: parsed.report };
  if (parsed.kind === "invalid")
    throw new SeedFileError(`${entry.path}: not a usable seed report:\n  ${parsed.errors.join("\n  ")}`);
  const result = await llm.call({
    role: "searcher",
    messages: renderMessages("curation-search-file", { domain, file: entry.name, notes: parsed.text }),
    template: "curation-search-file",
    schema: seedReportSchema,
    subject: `curation:${domain}:file:${entry.name}`,
  });
  if (!result.ok)
    throw new SeedFileError(`${entry.path}: the searcher could not structure these notes: ${result.error}`);
  return {
    report: parsed.title && !result.value.title ? { ...result.value, title: parsed.title } : result.value,
    model: result.model,
  };
}
