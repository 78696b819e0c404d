// `satpayload diff old new`: wire compatibility between two versions of a layout, per format, with the
// edits, the reasons and what to do instead.
import { parseArgs } from "node:util";
import { diffLayouts, formatShortLabel as formatLabel, type Compat, type LayoutDiff } from "#codecs";
import { InputError, intFlag, loadLayout, parseFormats, table, UsageError, write } from "./common.ts";

export const diffHelp = `satpayload diff OLD NEW [--json] [--format NAME...] [--probe N] [--fail-on breaking|degraded]
  OLD and NEW are *.satlayout.json files (or preset:ID). Prints, per wire format, whether decoders of
  the old layout read messages of the new one and the reverse (compatible / degraded / breaking),
  why, and the advice. --probe N also encodes N samples with one version and decodes them with the
  other. --fail-on exits 1 when any format reaches that level (for CI).
`;

const MARK: Record<Compat, string> = { compatible: "compatible", degraded: "DEGRADED", breaking: "BREAKING" };

function source(arg: string): { layout?: string; preset?: string } {
  return arg.startsWith("preset:") ? { preset: arg.slice(7) } : { layout: arg };
}

function text(d: LayoutDiff, probed: boolean): string {
  const out: string[] = [];
  out.push(d.changes.length ? `changes (${d.changes.length}):` : "no changes");
  for (const c of d.changes) out.push(`  ${c.kind.padEnd(9)} ${c.field}: ${c.detail}`);
  out.push("");
  const head = ["format", "old reads new", "new reads old", ...(probed ? ["checked (samples)"] : [])];
  const rows = d.formats.map((f) => [
    formatLabel(f.format),
    MARK[f.oldReadsNew],
    MARK[f.newReadsOld],
    ...(probed && f.observed ? [`${f.observed.oldReadsNew} / ${f.observed.newReadsOld} (${f.observed.samples})`] : []),
  ]);
  out.push(table(head, rows, 3).trimEnd());
  for (const f of d.formats) {
    const shown = f.findings;
    if (!shown.length) continue;
    out.push("", `${formatLabel(f.format)}:`);
    for (const x of shown)
      out.push(
        `  [${x.severity}${x.direction === "both" ? "" : `, ${x.direction === "oldReadsNew" ? "old reads new" : "new reads old"}`}] ${x.field ? `${x.field}: ` : ""}${x.message}`,
      );
  }
  if (d.advice.length) out.push("", "advice:", ...d.advice.map((a) => `  - ${a}`));
  return `${out.join("\n")}\n`;
}

export async function diffCommand(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        json: { type: "boolean", default: false },
        format: { type: "string", multiple: true },
        probe: { type: "string" },
        "fail-on": { type: "string" },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const flags = parsed.values;
  const positional = parsed.positionals;
  if (positional.length !== 2) throw new UsageError("give two layouts: satpayload diff OLD NEW");
  const failOn = flags["fail-on"];
  if (failOn !== undefined && failOn !== "breaking" && failOn !== "degraded")
    throw new UsageError('--fail-on takes "breaking" or "degraded"');
  const oldL = loadLayout(source(positional[0]!)).layout;
  const newL = loadLayout(source(positional[1]!)).layout;
  const probe = flags.probe === undefined ? 0 : intFlag(flags.probe, "--probe", 0, 1, 10_000);
  const d = diffLayouts(oldL, newL, { probe, formats: parseFormats(flags.format) });
  write(flags.json ? `${JSON.stringify(d, null, 2)}\n` : text(d, probe > 0));
  if (failOn) {
    const hit = d.formats.some((f) =>
      [f.oldReadsNew, f.newReadsOld].some((v) => v === "breaking" || (failOn === "degraded" && v === "degraded")),
    );
    if (hit)
      throw new InputError(
        `a format is ${failOn === "breaking" ? "breaking" : "degraded or breaking"} (--fail-on ${failOn})`,
      );
  }
}
