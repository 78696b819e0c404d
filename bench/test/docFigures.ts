// What docFigures.test.ts checks, as functions it can also feed made-up docs: which doc sections the
// scripts write (found from the scripts themselves, so a bench that starts writing a section is
// covered without a list to update), whether each section's markers are in place, and which
// throughputs the hand-written text quotes.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** folders that hold no doc or script of ours */
const SKIP = new Set(["node_modules", ".git", ".cache", ".venv", "dist", "out", "artifacts", ".tmp"]);

function walk(root: string, dir: string, keep: (file: string) => boolean, out: string[]): string[] {
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) walk(root, rel, keep, out);
    else if (keep(rel)) out.push(rel);
  }
  return out;
}

export function markdownFiles(root: string): string[] {
  return walk(root, "", (f) => f.endsWith(".md"), []).sort();
}

const MARKER = /"(<!-- [a-z0-9:-]+ -->)"/g;
/** what a `${…}` of a marker built in a template literal can stand for */
const MARKER_PART = "[a-z0-9:-]*";

/** A section a script writes: its markers as the script spells them (one marker twice, or a begin/end pair). */
export interface SectionWriter {
  script: string;
  begin: string;
  end: string;
  /**
   * A marker the script builds in a template literal (such as <!-- bench:designer${…} -->): every marker of
   * that form in the docs is one of its sections, and there must be at least one. `begin` shows the form.
   */
  family?: RegExp;
}

/** The template literals starting with "<!-- " in a source, as regular expressions over the markers they make. */
function templateMarkers(source: string): { shown: string; family: RegExp }[] {
  const out: { shown: string; family: RegExp }[] = [];
  for (let at = source.indexOf("`<!-- "); at >= 0; at = source.indexOf("`<!-- ", at + 1)) {
    // walk the literal: text, and ${…} expressions (which may hold strings and literals of their own)
    let pattern = "";
    let shown = "";
    let i = at + 1;
    let closed = false;
    while (i < source.length) {
      const c = source[i]!;
      if (c === "`") {
        closed = true;
        break;
      }
      if (c === "$" && source[i + 1] === "{") {
        let depth = 1;
        let quote: string | null = null;
        for (i += 2; i < source.length && depth > 0; i++) {
          const d = source[i]!;
          if (quote) {
            if (d === "\\") i++;
            else if (d === quote) quote = null;
          } else if (d === '"' || d === "'" || d === "`") quote = d;
          else if (d === "{") depth++;
          else if (d === "}") depth--;
        }
        pattern += MARKER_PART;
        if (!shown.endsWith("…")) shown += "…";
        continue;
      }
      pattern += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      shown += c;
      i++;
    }
    if (closed && shown.endsWith(" -->") && pattern.includes(MARKER_PART))
      out.push({ shown, family: new RegExp(`^${pattern}$`) });
  }
  return out;
}

/**
 * Every section some script writes: a source file (not a test) that spells a marker as a string
 * literal writes the text between that marker pair (docSection.ts's writeDocSection with one marker,
 * or a `…:begin` / `…:end` pair).
 */
export function sectionWriters(root: string): SectionWriter[] {
  const sources = walk(root, "", (f) => /\.(ts|tsx|mjs|cjs|js)$/.test(f) && !/\.test\.tsx?$/.test(f), []);
  const out: SectionWriter[] = [];
  for (const script of sources.sort()) {
    const marks = new Set([...readFileSync(path.join(root, script), "utf8").matchAll(MARKER)].map((m) => m[1]!));
    for (const m of marks) {
      if (/:end -->$/.test(m)) continue;
      const pair = m.replace(/:(begin|start) -->$/, ":end -->");
      out.push({ script, begin: m, end: pair === m ? m : pair });
    }
    for (const { shown, family } of templateMarkers(readFileSync(path.join(root, script), "utf8")))
      out.push({ script, begin: shown, end: shown, family });
  }
  return out;
}

const MARKER_LINE = /^<!-- [a-z0-9:-]+ -->$/gm;

/** A family writer as one writer per marker of its form in the docs (a marker used once or twice a line). */
function expandFamilies(
  docs: ReadonlyMap<string, string>,
  writers: readonly SectionWriter[],
  problems: string[],
): SectionWriter[] {
  return writers.flatMap((w) => {
    if (!w.family) return [w];
    const marks = new Set<string>();
    for (const text of docs.values())
      for (const m of text.matchAll(MARKER_LINE)) if (w.family.test(m[0])) marks.add(m[0]);
    if (marks.size === 0)
      problems.push(`${w.script} writes sections like ${w.begin}, but no doc has one on a line of its own`);
    return [...marks].sort().map((m) => ({ script: w.script, begin: m, end: m }));
  });
}

export interface Located {
  writer: SectionWriter;
  doc: string;
  /** the text between the markers */
  text: string;
}

/** Where `marker` stands on a line of its own (as the scripts write it; prose may quote it inline). */
function markerLines(text: string, marker: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(marker); i >= 0; i = text.indexOf(marker, i + 1)) {
    const lineStart = i === 0 || text[i - 1] === "\n";
    const after = text[i + marker.length];
    if (lineStart && (after === undefined || after === "\n" || after === "\r")) at.push(i);
  }
  return at;
}

/** Finds each writer's section in the docs; a marker missing, doubled or out of order is a problem. */
export function locateSections(
  docs: ReadonlyMap<string, string>,
  writers: readonly SectionWriter[],
): { sections: Located[]; problems: string[] } {
  const sections: Located[] = [];
  const problems: string[] = [];
  for (const w of expandFamilies(docs, writers, problems)) {
    const holders = [...docs].filter(([, text]) => markerLines(text, w.begin).length > 0);
    if (holders.length !== 1) {
      problems.push(
        holders.length === 0
          ? `${w.script} writes the section ${w.begin}, but no doc has that marker on a line of its own`
          : `the marker ${w.begin} of ${w.script} is in ${holders.map(([d]) => d).join(" and ")}: one doc only`,
      );
      continue;
    }
    const [doc, text] = holders[0]!;
    const begins = markerLines(text, w.begin);
    let span: [number, number] | undefined;
    if (w.begin === w.end) {
      if (begins.length === 2) span = [begins[0]! + w.begin.length, begins[1]!];
    } else {
      const ends = markerLines(text, w.end);
      if (begins.length === 1 && ends.length === 1 && ends[0]! > begins[0]!)
        span = [begins[0]! + w.begin.length, ends[0]!];
    }
    if (span === undefined) {
      problems.push(
        `${doc}: the section of ${w.script} needs ${w.begin === w.end ? `${w.begin} on exactly two lines` : `one ${w.begin} line followed by one ${w.end} line`}`,
      );
      continue;
    }
    sections.push({ writer: w, doc, text: text.slice(span[0], span[1]) });
  }
  return { sections, problems };
}

/** The doc with every generated section blanked out (its lines kept, so line numbers stay): what is left was written by hand. */
export function handWritten(text: string, sections: readonly Located[]): string {
  let out = text;
  for (const s of sections) out = out.split(s.text).join(s.text.replace(/[^\n]/g, " "));
  return out;
}

const UNIT = String.raw`req\/s|requests\/s|cin\/s|cins\/s|records\/s|msg\/s|messages\/s|ops\/s|instances\/s|RPS|rps|\/s\b|(?:req|requests|records|messages|msgs?|instances|cins?|ops)\s+(?:per|a)\s+second`;
// a number as docs write it: 2 750, 13,000, 18 383, 454.5; "k" for thousands; set in *italics* or **bold**
const FIGURE = new RegExp(
  String.raw`(=\s*)?(?<![\d.,])(\d{1,3}(?:[ \u00a0\u202f,]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(k\s*)?(?:[*_]{1,2}\s*)?(?:${UNIT})`,
  "g",
);
const NUMBER = /(?<![\d.,])(\d{1,3}(?:[ \u00a0\u202f,]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)/g;

const value = (digits: string, k?: string): number => Number(digits.replace(/[ \u00a0\u202f,]/g, "")) * (k ? 1000 : 1);

export interface Quote {
  /** as written */
  text: string;
  value: number;
  line: number;
}

/**
 * Throughputs quoted in hand-written text. A figure right after "=" is derived in the sentence
 * itself (2000 devices / 2 s = 1000 requests/s), not a measurement, and is left out.
 */
export function throughputQuotes(text: string): Quote[] {
  const out: Quote[] = [];
  for (const m of text.matchAll(FIGURE)) {
    if (m[1]) continue;
    out.push({
      text: m[0].replace(/\s+/g, " ").trim(),
      value: value(m[2]!, m[3]),
      line: text.slice(0, m.index).split("\n").length,
    });
  }
  return out;
}

/** Every number in the generated sections, as values. */
export function generatedNumbers(sections: readonly Located[]): Set<number> {
  const out = new Set<number>();
  for (const s of sections) for (const m of s.text.matchAll(NUMBER)) out.add(value(m[1]!));
  return out;
}
