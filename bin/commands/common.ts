// What every subcommand shares: flag parsing, loading a layout, reading stdin, and exit codes users can script against.
import { readFileSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { FORMAT_IDS, type FormatId } from "../../codecs/src/formats/types.ts";
import { isFormatId } from "../../codecs/src/formats/registry.ts";
import type { Layout } from "../../codecs/src/layout/schema.ts";
import { parseLayout } from "../../codecs/src/layout/validate.ts";
import { parsePlatform, platformById, PLATFORMS, type Platform } from "../../codecs/src/platforms/catalog.ts";
import { presetById, PRESETS } from "../../codecs/src/presets/index.ts";
import { InputError, UsageError } from "./errors.ts";

export { InputError, UsageError } from "./errors.ts";

export type Options = NonNullable<ParseArgsConfig["options"]>;

export function parseFlags<T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export const LAYOUT_FLAGS = {
  layout: { type: "string" },
  preset: { type: "string" },
} as const satisfies Options;

export interface LoadedLayout {
  layout: Layout;
  preset: string | undefined;
}

/** Exactly one of --layout FILE or --preset ID. */
export function loadLayout(flags: { layout?: string | undefined; preset?: string | undefined }): LoadedLayout {
  if ((flags.layout === undefined) === (flags.preset === undefined)) throw new UsageError("give exactly one of --layout FILE or --preset ID");
  if (flags.preset !== undefined) {
    const p = presetById(flags.preset);
    if (!p) throw new UsageError(`unknown preset "${flags.preset}" (presets: ${PRESETS.map((x) => x.id).join(", ")})`);
    return { layout: parseLayout(p.layout), preset: p.id };
  }
  const text = readText(flags.layout!);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new InputError(`${flags.layout}: not JSON (${(e as Error).message})`);
  }
  return { layout: parseLayout(json), preset: undefined };
}

export function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new InputError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** "--format all", repeated flags and comma lists all work; no flag means every format. */
export function parseFormats(values: readonly string[] | undefined): FormatId[] {
  if (!values || values.length === 0) return [...FORMAT_IDS];
  const names = values.flatMap((v) => v.split(",")).map((s) => s.trim()).filter(Boolean);
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
  if (!p) throw new UsageError(`unknown platform "${value}" (platforms: ${PLATFORMS.map((x) => x.id).join(", ")}; or a .json file)`);
  return p;
}

export function resolvePlatforms(values: readonly string[] | undefined): Platform[] {
  return (values ?? []).flatMap((v) => v.split(",")).map((s) => s.trim()).filter(Boolean).map(resolvePlatform);
}

/** A whole number flag within bounds; `fallback` when absent. */
export function intFlag(value: string | undefined, flag: string, fallback: number | undefined, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) {
    if (fallback === undefined) throw new UsageError(`${flag} is required`);
    return fallback;
  }
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`${flag} must be within ${min}..${max}, got ${n}`);
  return n;
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
