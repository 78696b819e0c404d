// The test matrix: formats × device counts × replica counts, one local stack per replica count, one
// run per cell, the way the paper built Tables 3–6.
import type { FormatId } from "#codecs";
import type { LoadTestResult, Progress } from "#contracts/loadtest/result.ts";
import { runSettingsSchema, type RunSettingsInput } from "#contracts/loadtest/spec.ts";
import type { RunLayout } from "./layoutSource.ts";
import { runLoadTest } from "./run.ts";
import { startLocalStack } from "./stack.ts";

export interface MatrixSpec {
  layout: RunLayout;
  formats: FormatId[];
  devices: number[];
  replicas: number[];
  /** everything else of a cell's settings (wait, durations, spawn rate, …) */
  base: Omit<RunSettingsInput, "format" | "devices" | "target">;
  /** run only the cells this accepts (the paper did not measure every combination) */
  include?: (cell: { format: FormatId; devices: number; replicas: number }) => boolean;
}

export interface MatrixCell {
  format: FormatId;
  devices: number;
  replicas: number;
}

export function matrixCells(spec: Pick<MatrixSpec, "formats" | "devices" | "replicas" | "include">): MatrixCell[] {
  const cells: MatrixCell[] = [];
  for (const replicas of spec.replicas)
    for (const format of spec.formats)
      for (const devices of spec.devices) {
        const cell = { format, devices, replicas };
        if (!spec.include || spec.include(cell)) cells.push(cell);
      }
  return cells;
}

export interface MatrixHooks {
  signal?: AbortSignal;
  onCell?: (result: LoadTestResult, index: number, total: number) => void;
  onProgress?: (cell: MatrixCell, index: number, total: number, p: Progress) => void;
}

export async function runMatrix(spec: MatrixSpec, hooks: MatrixHooks = {}): Promise<LoadTestResult[]> {
  const cells = matrixCells(spec);
  const results: LoadTestResult[] = [];
  let index = 0;
  for (const replicas of spec.replicas) {
    const mine = cells.filter((c) => c.replicas === replicas);
    if (mine.length === 0 || hooks.signal?.aborted) continue;
    const stack = await startLocalStack({ replicas, layoutArgs: spec.layout.decoderArgs });
    try {
      for (const cell of mine) {
        if (hooks.signal?.aborted) break;
        const settings = runSettingsSchema.parse({
          ...spec.base,
          format: cell.format,
          devices: cell.devices,
          target: { kind: "local", replicas },
        });
        const i = index++;
        const r = await runLoadTest({
          settings,
          layout: spec.layout,
          stack,
          signal: hooks.signal,
          onProgress: (p) => hooks.onProgress?.(cell, i, cells.length, p),
        });
        results.push(r);
        hooks.onCell?.(r, i, cells.length);
      }
    } finally {
      await stack.stop();
    }
  }
  return results;
}
