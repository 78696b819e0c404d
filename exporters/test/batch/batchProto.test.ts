// The batch .proto (issue #27) against Google's protobuf runtime: protoc compiles the exported file,
// Python's ParseFromString reads our batch bytes of both forms, and the readings rebuilt from what it read
// (the delta form: the first value, differences summed, keyframes whole, time base plus offsets) are the
// source readings at their declared precision.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  batchCodecFor,
  type BatchForm,
  type BatchRecord,
  generateBatches,
  type Layout,
  type LayoutInput,
  parseLayout,
  type ScalarType,
} from "#codecs";
import {
  batchPlanFor,
  type BatchPlan,
  fixedPoint,
  formatTimestamp,
  protoFieldName,
  resolutionDecimals,
} from "#codecs/plans";
import { repoRoot, runPython } from "#codecs-test/helpers/python.ts";
import { formTitle } from "../../src/batch/parts.ts";
import { generateBatchExports } from "../../src/batchExport.ts";
import { BATCH_LAYOUTS } from "../support/batchLayouts.ts";

type Parsed = Record<string, unknown>;

const CASES = BATCH_LAYOUTS.flatMap((l) =>
  (["delta", "columns"] as const).map((form) => ({ ...l, form, layout: parseLayout(l.input as LayoutInput) })),
);

/** Python's tagged numbers ({"i"} 64-bit, {"f"} IEEE bits) as plain numbers. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === "object" && "i" in v) return Number((v as { i: string }).i);
  if (v && typeof v === "object" && "f" in v) return Buffer.from((v as { f: string }).f, "hex").readDoubleBE(0);
  return v;
}

const ticks = (seconds: number, res: number) => {
  const d = resolutionDecimals(res);
  return d > 0 ? Math.round(seconds * 10 ** d) : Math.round(seconds / res);
};

function get(r: Record<string, unknown>, p: readonly (string | number)[]): unknown {
  return p.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], r);
}

/** A value as protobuf carries it (enum numbers, fixed-point raws, timestamps as their text or ticks, float32 rounding). */
function protoColumn(t: ScalarType, v: unknown): unknown {
  if (t.kind === "enum") return t.values.find((e) => e.name === v)!.value;
  if (t.kind === "timestamp")
    return t.encoding === "text" ? formatTimestamp(v as number, t.textFormat!) : ticks(v as number, t.resolution);
  if (t.kind === "float" && t.bits === 32) return Math.fround(v as number);
  if (t.kind === "fixed") return fixedPoint(t).toRaw(v as number);
  return v;
}

/** Per leaf: the values Python read, rebuilt into one value per reading, and the source's values. */
function compare(plan: BatchPlan, msg: Parsed, b: BatchRecord): { got: unknown[]; want: unknown[] }[] {
  const f = (key: string) => plain(msg[protoFieldName(key)]);
  const n = b.readings.length;
  return plan.leaves.map((lp) => {
    const src = b.readings.map((r) => get(r, lp.leaf.path));
    if (lp.kind === "column")
      return { got: f(lp.key) as unknown[], want: src.map((v) => protoColumn(lp.leaf.type, v)) };
    if (lp.kind === "time") {
      const base = f(lp.baseKey);
      const t = src.map((v) => ticks(v as number, lp.resolution));
      const offs = (f(lp.offsetKey) as number[] | undefined) ?? [];
      return {
        got: [base, ...offs],
        want: [protoColumn(lp.leaf.type, src[0]), ...t.slice(1).map((x) => x - t[0]!)],
      };
    }
    const next = (f(lp.nextKey) as number[] | undefined) ?? [];
    const keys = (f(lp.keyframeKey) as number[] | undefined) ?? [];
    const u = [f(lp.firstKey) as number];
    for (let i = 1, d = 0, k = 0; i < n; i++)
      u.push(plan.keyframeEvery > 0 && i % plan.keyframeEvery === 0 ? keys[k++]! : u[i - 1]! + next[d++]!);
    return { got: u, want: src.map((v) => lp.units.toUnits(v as number)) };
  });
}

interface Job {
  layout: Layout;
  form: BatchForm;
  plan: BatchPlan;
  batches: BatchRecord[];
}

let dir = "";
const jobs: Job[] = [];
let parsed: Parsed[][] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "satpayload-batch-proto-"));
  const requests = CASES.map((c, i) => {
    const plan = batchPlanFor(c.layout, c.form, c.n);
    const codec = batchCodecFor(c.layout, "protobuf", c.form, c.n);
    const batches = generateBatches(c.layout, 120, c.n, 21).map((b, j) => ({
      once: b.once,
      readings: b.readings.slice(0, 1 + (j % c.n)),
    }));
    jobs.push({ layout: c.layout, form: c.form, plan, batches });
    const file = generateBatchExports(c.layout, { forms: [c.form] }).find((x) => x.path.endsWith(".proto"))!;
    const sub = path.join(dir, `j${i}`);
    const proto = path.join(dir, `j${i}_${path.basename(file.path)}`);
    writeFileSync(proto, file.content);
    return {
      name: sub,
      proto,
      message: `${c.layout.message}${formTitle(c.form)}`,
      parse: batches.map((b) => Buffer.from(codec.encode(b)).toString("hex")),
    };
  });
  parsed = (
    runPython(path.join(repoRoot, "codecs/reference/ref_protobuf.py"), { jobs: requests }) as {
      results: { parsed: Parsed[] }[];
    }
  ).results.map((r) => r.parsed);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("batch .proto against Python protobuf", () => {
  CASES.forEach((c, i) => {
    it(`${c.name}, ${c.form} form: Python reads our messages back to the source readings`, () => {
      const { plan, batches } = jobs[i]!;
      const readings = batches.reduce((s, b) => s + b.readings.length, 0);
      expect(readings).toBeGreaterThan(500);
      batches.forEach((b, j) => {
        const msg = parsed[i]![j]!;
        if (plan.countKey) expect(plain(msg[plan.countKey])).toBe(b.readings.length);
        for (const { got, want } of compare(plan, msg, b)) expect(got, `message ${j}`).toEqual(want);
        for (const f of plan.once)
          if (f.type.kind === "int" || f.type.kind === "string")
            expect(plain(msg[protoFieldName(f.key)]), f.key).toEqual(b.once[f.key] ?? (f.type.kind === "int" ? 0 : ""));
      });
    });
  });
});
