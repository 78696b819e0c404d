// Figures in docs come from scripts: every section a bench script writes has its markers in place,
// and a throughput (req/s, cin/s, RPS …) quoted in hand-written text is one some generated section
// holds. Checked on made-up docs first (the check can fail), then on the repository's docs.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "#services/shared/launch.ts";
import {
  generatedNumbers,
  handWritten,
  locateSections,
  markdownFiles,
  sectionWriters,
  throughputQuotes,
  type SectionWriter,
} from "./docFigures.ts";

const writer = (begin: string, end = begin): SectionWriter => ({ script: "bench/x.ts", begin, end });

describe("the doc-figure check", () => {
  const doc = [
    "# Bench",
    "<!-- x -->",
    "| target | req/s |",
    "|---|---:|",
    "| decoder | 13,000 |",
    "<!-- x -->",
    "The decoder sustained 13 000 req/s (table above); 2000 devices / 2 s = 1000 requests/s.",
  ].join("\n");

  it("finds a section by its markers, and reports a missing, doubled or unpaired one", () => {
    expect(locateSections(new Map([["a.md", doc]]), [writer("<!-- x -->")]).problems).toEqual([]);
    expect(locateSections(new Map([["a.md", "no markers"]]), [writer("<!-- x -->")]).problems[0]).toMatch(
      /bench\/x\.ts writes the section <!-- x -->, but no doc has that marker/,
    );
    expect(locateSections(new Map([["a.md", `${doc}\n<!-- x -->`]]), [writer("<!-- x -->")]).problems[0]).toMatch(
      /on exactly two lines/,
    );
    expect(
      locateSections(new Map([["a.md", "<!-- y:end -->\n<!-- y:begin -->"]]), [
        writer("<!-- y:begin -->", "<!-- y:end -->"),
      ]).problems[0],
    ).toMatch(/followed by one <!-- y:end --> line/);
    // prose that names a marker does not make a section
    expect(
      locateSections(new Map([["a.md", "written between the `<!-- x -->` markers"]]), [writer("<!-- x -->")])
        .problems[0],
    ).toMatch(/no doc has that marker/);
  });

  it("accepts a quote a generated section holds and a derived figure, and flags a copied one that none holds", () => {
    const { sections } = locateSections(new Map([["a.md", doc]]), [writer("<!-- x -->")]);
    const generated = generatedNumbers(sections);
    const hand = handWritten(doc, sections);
    const quotes = throughputQuotes(hand);
    expect(quotes.map((q) => q.text)).toEqual(["13 000 req/s"]);
    expect(quotes.every((q) => generated.has(q.value))).toBe(true);
    const stale = throughputQuotes("it did 2 750 req/s and ~2 950 cin/s, 8 131/s, 454.5 RPS, 18k req/s");
    expect(stale.map((q) => q.value)).toEqual([2750, 2950, 8131, 454.5, 18000]);
    expect(stale.filter((q) => !generated.has(q.value))).toHaveLength(5);
    // markdown emphasis and words instead of a slash hide no figure
    const dressed = throughputQuotes(
      "it did **2 750** req/s, *2.9k* cin/s, 1 200 requests per second and 950 records a second",
    );
    expect(dressed.map((q) => q.value)).toEqual([2750, 2900, 1200, 950]);
  });

  it("finds a section whose marker a script builds in a template literal, and each of its markers in the docs", () => {
    const root = mkdtempSync(path.join(tmpdir(), "doc-figures-"));
    try {
      mkdirSync(path.join(root, "bench"));
      // as e2e/bench/ui-recompute.ts names its sections: one per label, with or without a CPU burner
      writeFileSync(
        path.join(root, "bench/ui.ts"),
        'const mark = `<!-- bench:ui${label === "now" ? "" : `-${label}`}${burner ? "-burner" : ""} -->`;\n',
      );
      const writers = sectionWriters(root);
      expect(writers.map((w) => w.script)).toEqual(["bench/ui.ts"]);
      const section = (m: string) => `${m}\n| p95 | 12 ms |\n${m}`;
      const both = `${section("<!-- bench:ui -->")}\n\n${section("<!-- bench:ui-burner -->")}`;
      const found = locateSections(new Map([["b.md", both]]), writers);
      expect(found.problems).toEqual([]);
      expect(found.sections.map((s) => s.writer.begin)).toEqual(["<!-- bench:ui -->", "<!-- bench:ui-burner -->"]);
      // one marker line lost, or every section gone
      const lost = both.replace("<!-- bench:ui-burner -->\n", "");
      expect(locateSections(new Map([["b.md", lost]]), writers).problems[0]).toMatch(/on exactly two lines/);
      expect(locateSections(new Map([["b.md", "nothing"]]), writers).problems[0]).toMatch(
        /bench\/ui\.ts writes sections like <!-- bench:ui… -->, but no doc has one/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("finds the sections the repository's scripts write, from the scripts", () => {
    const writers = sectionWriters(repoRoot);
    const scripts = new Set(writers.map((w) => w.script));
    for (const s of [
      "codecs/bench/codecs.bench.ts",
      "bench/ingest.bench.ts",
      "bench/cse.bench.ts",
      "e2e/bench/ui-recompute.ts",
    ])
      expect(scripts, s).toContain(s);
    expect(writers.find((w) => w.begin === "<!-- bench:codecs:begin -->")?.end).toBe("<!-- bench:codecs:end -->");
    expect(writers.find((w) => w.begin === "<!-- ingest -->")?.end).toBe("<!-- ingest -->");
  });
});

describe("the repository's docs", () => {
  const docs = new Map(markdownFiles(repoRoot).map((f) => [f, readFileSync(path.join(repoRoot, f), "utf8")]));
  const writers = sectionWriters(repoRoot);
  const { sections, problems } = locateSections(docs, writers);

  it("every section a script writes has its markers", () => {
    expect(writers.length).toBeGreaterThanOrEqual(10);
    expect(problems).toEqual([]);
  });

  it("every throughput quoted by hand is one a generated section holds", () => {
    const generated = generatedNumbers(sections);
    const stray: string[] = [];
    for (const [file, text] of docs)
      for (const q of throughputQuotes(
        handWritten(
          text,
          sections.filter((s) => s.doc === file),
        ),
      ))
        if (!generated.has(q.value)) stray.push(`${file}:${q.line}: ${q.text}`);
    expect(
      stray,
      "quote the generated table (or point at it) instead of typing a figure; a figure derived in the sentence follows an '='",
    ).toEqual([]);
  });
});
