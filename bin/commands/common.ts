// What every subcommand shares: flag parsing, loading a layout, reading stdin, and exit codes users can script against.
import { FORMAT_IDS, type FormatId, isFormatId } from "#codecs";
import { parsePlatform, type Platform, platformById, PLATFORMS } from "#planning";
import { readText } from "#services/shared/loadLayout.ts";
import { InputError, UsageError } from "./errors.ts";

// flag parsing, layout loading and the error kinds are shared with the services, which may not import bin/
export { InputError, UsageError } from "./errors.ts";
export { intFlag, parseFlags, type Options } from "#services/shared/flags.ts";
export { LAYOUT_FLAGS, loadLayout, readText, type LoadedLayout } from "#services/shared/loadLayout.ts";

/** A flag's values as one list: a repeated flag and comma lists both work ("a,b" --x c → a, b, c); blanks dropped. */
export function commaList(values: readonly (string | boolean)[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => String(v).split(","))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** "--format all", repeated flags and comma lists all work; no flag means every format. */
export function parseFormats(values: readonly string[] | undefined): FormatId[] {
  if (!values || values.length === 0) return [...FORMAT_IDS];
  const names = commaList(values);
  if (names.includes("all")) return [...FORMAT_IDS];
  const out: FormatId[] = [];
  for (const n of names) {
    if (!isFormatId(n)) throw new UsageError(`unknown format "${n}" (formats: ${FORMAT_IDS.join(", ")}, all)`);
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

export function parseFormat(value: string | undefined, flag = "--format"): FormatId {
  if (value === undefined) throw new UsageError(`${flag} is required (formats: ${FORMAT_IDS.join(", ")})`);
  if (!isFormatId(value)) throw new UsageError(`unknown format "${value}" (formats: ${FORMAT_IDS.join(", ")})`);
  return value;
}

/** A catalog id, or a JSON file holding a custom platform. */
export function resolvePlatform(value: string): Platform {
  if (value.endsWith(".json")) {
    let json: unknown;
    try {
      json = JSON.parse(readText(value));
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`${value}: not JSON (${(e as Error).message})`);
    }
    return parsePlatform(json);
  }
  const p = platformById(value);
  if (!p)
    throw new UsageError(
      `unknown platform "${value}" (platforms: ${PLATFORMS.map((x) => x.id).join(", ")}; or a .json file)`,
    );
  return p;
}

export function resolvePlatforms(values: readonly string[] | undefined): Platform[] {
  return commaList(values).map(resolvePlatform);
}

export async function readStdin(): Promise<Buffer> {
  if (process.stdin.isTTY) throw new UsageError("nothing on stdin: pipe the input in (or see --help)");
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export function write(text: string): void {
  process.stdout.write(text);
}

/** Left-aligned first column, right-aligned numbers, two spaces between columns. */
export function table(header: string[], rows: string[][], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < leftColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}
