// A layout named on a command line (--layout FILE or --preset ID), for the CLI and the services alike.
import { readFileSync } from "node:fs";
import { type Layout, parseLayout, presetById, PRESETS } from "#codecs";
import { InputError, UsageError } from "./cliErrors.ts";
import type { Options } from "./flags.ts";

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
  if ((flags.layout === undefined) === (flags.preset === undefined))
    throw new UsageError("give exactly one of --layout FILE or --preset ID");
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
