// The layout a run sends: what the generator encodes, the name the decoder knows it by, and the
// decoder flags that load it into a local stack.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Layout, parseLayout, presetById, PRESETS } from "#codecs";

export interface RunLayout {
  layout: Layout;
  /** X-Satpayload-Layout: the id the decoder resolves */
  id: string;
  name: string;
  /** ["--preset", id] or ["--layout", file] */
  decoderArgs: string[];
  /** removes a written layout file */
  dispose(): void;
}

export class LayoutSourceError extends Error {
  override readonly name = "LayoutSourceError";
}

export function presetLayout(id: string): RunLayout {
  const p = presetById(id);
  if (!p) throw new LayoutSourceError(`unknown preset "${id}" (presets: ${PRESETS.map((x) => x.id).join(", ")})`);
  const layout = parseLayout(p.layout);
  return { layout, id: p.id, name: layout.name, decoderArgs: ["--preset", p.id], dispose: () => {} };
}

/** A layout document (a project's or a file's): written to a temp *.satlayout.json the decoder loads by file name. */
export function documentLayout(input: unknown, id: string): RunLayout {
  const layout = parseLayout(input);
  const safe = id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "layout";
  const dir = mkdtempSync(path.join(os.tmpdir(), "satpayload-loadtest-layout-"));
  const file = path.join(dir, `${safe}.satlayout.json`);
  writeFileSync(file, JSON.stringify(layout, null, 2));
  return {
    layout,
    id: safe,
    name: layout.name,
    decoderArgs: ["--layout", file],
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
