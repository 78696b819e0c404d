// Writes the deployment bundle into a directory; every file temp + rename, layouts checked first.
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadLayout } from "../../../bin/commands/common.ts";
import { writeFileAtomic } from "../../shared/atomicWrite.ts";
import { renderCompose, renderDockerfile, renderNginx, renderReadme, decoderHost, DECODER_PORT, type BundleOptions } from "./render.ts";

export interface ExportRequest extends Omit<BundleOptions, "layoutFiles" | "buildContext" | "dockerfile"> {
  outDir: string;
  /** absolute paths of layout files to ship */
  layouts: string[];
  /** the checkout the image is built from */
  repoRoot: string;
}

export function writeBundle(r: ExportRequest): string[] {
  const out = path.resolve(r.outDir);
  const names: string[] = [];
  for (const file of r.layouts) {
    // a broken layout fails here, not in a container at 3 a.m.
    loadLayout({ layout: file });
    const name = path.basename(file);
    if (names.includes(name)) throw new Error(`two layouts are named ${name}`);
    names.push(name);
  }
  const buildContext = path.relative(out, path.resolve(r.repoRoot)) || ".";
  const dockerfile = path.relative(path.resolve(r.repoRoot), path.join(out, "Dockerfile"));
  const o: BundleOptions = { ...r, layoutFiles: names, buildContext, dockerfile };
  const files: [string, string][] = [
    ["docker-compose.yml", renderCompose(o)],
    ["nginx/decoder.conf", renderNginx(o, Array.from({ length: r.replicas }, (_, i) => `${decoderHost(i + 1)}:${DECODER_PORT}`))],
    ["Dockerfile", renderDockerfile(o)],
    ["README.md", renderReadme(o)],
  ];
  const written: string[] = [];
  for (const [rel, text] of files) {
    writeFileAtomic(path.join(out, rel), text);
    written.push(rel);
  }
  for (let i = 0; i < r.layouts.length; i++) {
    writeFileAtomic(path.join(out, "layouts", names[i]!), readFileSync(r.layouts[i]!));
    written.push(`layouts/${names[i]}`);
  }
  return written;
}
