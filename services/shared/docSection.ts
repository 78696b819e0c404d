// The benches' shared way into docs/benchmarks.md: each owns the text between a pair of its own
// markers (appended at the end the first time), and says which machine, how busy, measured it.
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../shared/atomicWrite.ts";

export const BENCHMARKS_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/benchmarks.md");

/** Replaces what lies between the two `mark`s (the section includes them) with `section`. */
export function writeDocSection(mark: string, section: string, file = BENCHMARKS_DOC): void {
  if (!section.startsWith(mark) || !section.trimEnd().endsWith(mark))
    throw new Error(`section must start and end with ${mark}`);
  const doc = readFileSync(file, "utf8");
  const parts = doc.split(mark);
  const next =
    parts.length >= 3
      ? `${parts[0]}${section.trimEnd()}${parts.slice(2).join(mark)}`
      : `${doc.trimEnd()}\n\n${section.trimEnd()}\n`;
  writeFileAtomic(file, next);
}

/** CPU model, cores, RAM, Node, kernel and the load average, for the line under a table. */
export function machineLine(load = os.loadavg()): string {
  let cpu = os.cpus()[0]?.model.replace(/\s+/g, " ").trim() ?? "unknown CPU";
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    if (m) cpu = m[1]!.trim();
  } catch {
    // not Linux: os.cpus() already named it
  }
  const gib = (os.totalmem() / 2 ** 30).toFixed(1);
  return `${cpu}, ${os.availableParallelism()} cores, ${gib} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}, load average ${load.map((x) => x.toFixed(1)).join(" ")}`;
}
