// The bundle for runs beyond one machine: the payload pool with the device model, plus the Locust and
// k6 scripts that read it (services/loadgen/export/).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RunSettings } from "#contracts/loadtest/spec.ts";
import type { RunLayout } from "./layoutSource.ts";
import { buildPool, poolToFile, type PoolFile } from "./pool.ts";
import { runHeaders } from "./run.ts";

export const EXPORT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../export");
export const POOL_FILE_NAME = "payload-pool.json";
export const SCRIPT_FILES = ["locustfile.py", "k6-script.js", "README.md"] as const;

/** What the scripts need besides the payloads: the device model of the run. */
export interface DeviceModel {
  mode: RunSettings["mode"];
  devices: number;
  arrivalRate?: number | undefined;
  wait: RunSettings["wait"];
  spawnRate: number;
  durationSeconds: number;
  connection: RunSettings["connection"];
  timeoutMs: number;
  path: string;
  /** default host for k6 (Locust takes --host) */
  target?: string | undefined;
}

export type PoolFileWithModel = PoolFile & { model: DeviceModel };

export function poolFileFor(layout: RunLayout, s: RunSettings): PoolFileWithModel {
  const pool = buildPool(layout.layout, s.format, s.poolSize, s.seed, false, s.devices);
  let target: string | undefined;
  let ingestPath = "/ingest";
  if (s.target.kind === "url") {
    const u = new URL(s.target.url);
    target = u.origin;
    ingestPath = u.pathname && u.pathname !== "/" ? u.pathname : "/ingest";
  }
  return {
    ...poolToFile(pool, { id: layout.id, name: layout.name }, runHeaders(layout.id, s.format)),
    model: {
      mode: s.mode,
      devices: s.devices,
      arrivalRate: s.arrivalRate,
      wait: s.wait,
      spawnRate: s.spawnRate,
      durationSeconds: s.durationSeconds,
      connection: s.connection,
      timeoutMs: s.timeoutMs,
      path: ingestPath,
      target,
    },
  };
}

function writeAtomic(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

/** Writes the pool file and the scripts into `dir`; returns the written paths. */
export function writeExportBundle(dir: string, layout: RunLayout, s: RunSettings): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const poolPath = path.join(dir, POOL_FILE_NAME);
  writeAtomic(poolPath, `${JSON.stringify(poolFileFor(layout, s))}\n`);
  written.push(poolPath);
  for (const name of SCRIPT_FILES) {
    const to = path.join(dir, name);
    writeAtomic(to, readFileSync(path.join(EXPORT_DIR, name), "utf8"));
    written.push(to);
  }
  return written;
}
