/**
 * Issue 29, finding 11: `report --out` wrote through planted symbolic links, and report.md showed
 * a plan's mediator name as raw HTML. Real report files from a seeded SQLite file.
 */
import { linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildBenchmarkReport } from "../../../../app/server/benchmark/report.server.ts";
import { writeReportFiles } from "../../../../app/server/benchmark/report-files.server.ts";
import { mdCell, mdNote, mdText } from "../../../../app/domain/benchmark/report/format.ts";
import { csvRecord } from "../../../../app/domain/csv.ts";
import { openDatabase } from "../../../../app/server/db.server.ts";
import { OutputFolderError, writeFileInFolder } from "../../../../app/server/output-folder.server.ts";
import { runCli } from "../../../helpers/cli.ts";
import { tempDir } from "../../../../harness/temp-db.ts";
import { fixturePlan, seededPlanFile } from "./fixture.ts";

const EVIL_MEDIATOR = "<img src=x onerror=alert(1)>";
const EVIL_PLAN = "plan | <b>bold</b>\n# heading";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const loaded = fixturePlan({
  name: EVIL_PLAN,
  mediators: [
    { name: EVIL_MEDIATOR, model: "med-a" },
    { name: "beta", model: "med-b", mode: "social" },
    { name: "gamma", model: "med-c" },
  ],
  ablations: {},
});

async function seeded(): Promise<{ dir: string; dbPath: string }> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return { dir, dbPath: await seededPlanFile(dir, loaded) };
}

async function writeReport(dbPath: string, out: string): Promise<string[]> {
  const db = await openDatabase(dbPath);
  try {
    return await writeReportFiles(await buildBenchmarkReport(db, loaded), out);
  } finally {
    db.$client.close();
  }
}

describe("report text from a plan or the database is escaped", () => {
  it("markdown: HTML as entities, table pipes and marks backslashed, one line, no leading block marks", () => {
    expect(mdCell(EVIL_MEDIATOR)).toBe("&lt;img src=x onerror=alert(1)&gt;");
    expect(mdCell("a|b *c* _d_ `e` ~f~ \\g")).toBe("a\\|b \\*c\\* \\_d\\_ \\`e\\` \\~f\\~ \\\\g");
    expect(mdCell("[x](javascript:alert(1)) [y][z] & more\r\nnext")).toBe(
      "[x\\](javascript:alert(1)) [y\\][z] &amp; more next",
    );
    expect(mdText("# not a heading")).toBe("\\# not a heading");
    expect(mdText("1. not a list")).toBe("1\\. not a list");
    expect(mdText("- not a list")).toBe("\\- not a list");
    // Our commands in code spans stay; the text around them is escaped.
    expect(mdNote("fill <x> with `npx socrates probe --scenario a_b`.")).toBe(
      "fill &lt;x&gt; with `npx socrates probe --scenario a_b`.",
    );
    expect(mdNote("odd ` backtick <b>")).toBe("odd \\` backtick &lt;b&gt;");
  });

  it("csv: a name that starts like a formula is neutralised as in every other CSV export; numbers stay numbers", () => {
    expect(csvRecord(['=HYPERLINK("http://x")', -0.5, "a,b", "line\r\nbreak", null])).toBe(
      `"'=HYPERLINK(""http://x"")",-0.5,"a,b","line\r\nbreak",`,
    );
  });

  it("report.md and report.html carry the mediator and plan names escaped, never as markup", async () => {
    const { dir, dbPath } = await seeded();
    const out = join(dir, "out");
    await writeReport(dbPath, out);
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).not.toContain("<img");
    expect(md).not.toContain("<b>");
    expect(md).toContain("# Benchmark report: plan \\| &lt;b&gt;bold&lt;/b&gt; # heading\n");
    expect(md).toMatch(/^\| &lt;img src=x onerror=alert\(1\)&gt; \| /m);
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("<title>Benchmark report: plan | &lt;b&gt;bold&lt;/b&gt;\n# heading</title>");
    expect(html).toContain('<th scope="row">&lt;img src=x onerror=alert(1)&gt;</th>');
    // The figures name the mediators too: Vega's SVG writes them as text.
    for (const svg of readdirSync(out).filter((f) => f.endsWith(".svg")))
      expect(readFileSync(join(out, svg), "utf8")).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;</text>");
  });
});

describe("report --out refuses symbolic links", () => {
  it("refuses a symbolically linked folder and a link planted in the folder, writing nothing", async () => {
    const { dir, dbPath } = await seeded();
    const elsewhere = join(dir, "elsewhere");
    mkdirSync(elsewhere);
    const linked = join(dir, "linked-out");
    symlinkSync(elsewhere, linked);
    await expect(writeReport(dbPath, linked)).rejects.toThrow(
      new OutputFolderError(`${linked} is a symbolic link; refusing to write through it (give --out a real folder)`),
    );
    expect(readdirSync(elsewhere)).toEqual([]);

    const out = join(dir, "out");
    mkdirSync(out);
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "keep me\n");
    symlinkSync(victim, join(out, "report.md"));
    await expect(writeReport(dbPath, out)).rejects.toThrow(
      /out holds symbolic links \(report\.md\); refusing to write where a link could send a file elsewhere/,
    );
    expect(readFileSync(victim, "utf8")).toBe("keep me\n");
    expect(readdirSync(out)).toEqual(["report.md"]);
  });

  it("a link or hard link appearing after the check is refused at the write itself", () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "keep me\n");
    symlinkSync(victim, join(dir, "table3.csv"));
    expect(() => writeFileInFolder(join(dir, "table3.csv"), "x")).toThrow(
      /table3\.csv is a symbolic link; refusing to write through it/,
    );
    linkSync(victim, join(dir, "table7.csv"));
    expect(() => writeFileInFolder(join(dir, "table7.csv"), "x")).toThrow(/table7\.csv has other hard links/);
    expect(readFileSync(victim, "utf8")).toBe("keep me\n");
    // A plain file is rewritten in place, shorter content included.
    writeFileSync(join(dir, "report.md"), "a much longer earlier report\n");
    writeFileInFolder(join(dir, "report.md"), "new\n");
    expect(readFileSync(join(dir, "report.md"), "utf8")).toBe("new\n");
  });

  it("the CLI exits 2 naming the linked folder", { timeout: 180_000 }, async () => {
    const { dir, dbPath } = await seeded();
    const elsewhere = join(dir, "elsewhere");
    mkdirSync(elsewhere);
    const linked = join(dir, "linked-out");
    symlinkSync(elsewhere, linked);
    const result = runCli(["report", "--hash", loaded.hash, "--out", linked, "--format", "md"], {
      SOCRATES_DB: dbPath,
    });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(`${linked} is a symbolic link; refusing to write through it`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
