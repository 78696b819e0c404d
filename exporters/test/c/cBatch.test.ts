// The C99 batch encoder/decoder (issue #27) compiled with gcc (strict C99, every warning an error, ASan +
// UBSan) and run on a few thousand generated readings against the TypeScript batch codec: the same bytes
// from the same readings, the same readings from the same bytes, and the same verdict on truncated and
// mutated messages, a count over the limit and a change faster than the declared rate (an error code,
// never a reading).
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  batchCodecFor,
  type BatchForm,
  type BatchRecord,
  DecodeError,
  EncodeError,
  generateBatches,
  type Layout,
  type LayoutInput,
  parseLayout,
  Prng,
  type TypedRecord,
} from "#codecs";
import { batchPlanFor } from "#codecs/plans";
import { batchHarness } from "./harness/batchHarness.ts";
import { gccAsync, inParallel, run, SANITIZE, STRICT, Workdir } from "./harness/build.ts";
import { asCRecord, hex, recordTokens, tokensRecord } from "./harness/tokens.ts";
import {
  batchModels,
  batchNames,
  type CBatchFormat,
  generateCBatch,
  type BatchModels,
} from "../../src/batch/cBatch.ts";
import { BATCH_LAYOUTS } from "../support/batchLayouts.ts";

interface Case {
  name: string;
  layout: Layout;
  form: BatchForm;
  format: CBatchFormat;
  n: number;
}

const CASES: Case[] = BATCH_LAYOUTS.flatMap(({ name, input, n }) => {
  const layout = parseLayout(input as LayoutInput);
  return [
    { name, layout, form: "delta" as const, format: "bitpacked" as const, n },
    { name, layout, form: "delta" as const, format: "struct" as const, n },
    { name, layout, form: "columns" as const, format: "bitpacked" as const, n },
    { name, layout, form: "columns" as const, format: "struct" as const, n },
  ];
});

const work = new Workdir("c-batch");
const exes: string[] = [];
const models: BatchModels[] = [];

beforeAll(async () => {
  const jobs: (() => Promise<void>)[] = [];
  CASES.forEach((c, i) => {
    const plan = batchPlanFor(c.layout, c.form, c.n);
    const m = batchModels(c.layout, plan);
    const names = batchNames(m, plan, c.format);
    const dir = `b${i}`;
    const files = generateCBatch(c.layout, plan, c.format);
    work.write(files, dir);
    work.writeText(`${dir}/h.c`, batchHarness(m.reading, m.once, names));
    const sources = files.filter((f) => f.path.endsWith(".c")).map((f) => `${dir}/${f.path}`);
    jobs.push(() => gccAsync(work, [...STRICT, ...SANITIZE, `-I${dir}`, "-o", `${dir}/h`, `${dir}/h.c`, ...sources]));
    exes.push(work.path(`${dir}/h`));
    models.push(m);
  });
  await inParallel(jobs);
}, 300_000);

afterAll(() => work.remove());

const encodeLine = (m: BatchModels, b: BatchRecord, cap = 4096) =>
  `E ${cap} ${b.readings.length} ${[recordTokens(m.once, b.once), ...b.readings.map((r) => recordTokens(m.reading, r))].join(" ")}`;

/** What the C decoder must print for the TypeScript codec's decoded batch (C types: raws, ticks). */
function cView(m: BatchModels, b: BatchRecord): { once: TypedRecord; readings: TypedRecord[] } {
  return { once: asCRecord(m.once, b.once), readings: b.readings.map((r) => asCRecord(m.reading, r)) };
}

function parseDecoded(m: BatchModels, line: string): { once: TypedRecord; readings: TypedRecord[] } {
  const [head, once, ...readings] = line.slice(3).split("|");
  expect(Number(head)).toBe(readings.length);
  return { once: tokensRecord(m.once, once!), readings: readings.map((r) => tokensRecord(m.reading, r)) };
}

function tsDecode(codec: ReturnType<typeof batchCodecFor>, bytes: Uint8Array): BatchRecord | undefined {
  try {
    return codec.decode(bytes);
  } catch (e) {
    if (e instanceof DecodeError) return undefined;
    throw e;
  }
}

function mutate(b: Uint8Array, rng: Prng): Uint8Array {
  const out = Array.from(b);
  const at = rng.int(0, out.length - 1);
  const kind = rng.int(0, 2);
  if (kind === 0) out[at] = out[at]! ^ (1 << rng.int(0, 7));
  else if (kind === 1) out[at] = rng.int(0, 255);
  else out.splice(at, 1);
  return Uint8Array.from(out);
}

describe.each(CASES.map((c, i) => [`${c.name} ${c.form} ${c.format}`, i] as const))("%s", (_label, i) => {
  it("C and TypeScript agree on every message: bytes, readings, truncations, mutations", async () => {
    const c = CASES[i]!;
    const m = models[i]!;
    const codec = batchCodecFor(c.layout, c.format, c.form, c.n);
    // messages of every count from 1 to n, cut from one continuous series
    const batches = generateBatches(c.layout, 240, c.n, 5).map((b, j) => ({
      once: b.once,
      readings: b.readings.slice(0, 1 + (j % c.n)),
    }));
    const readings = batches.reduce((s, b) => s + b.readings.length, 0);
    expect(readings).toBeGreaterThan(1000);
    const ours = batches.map((b) => codec.encode(b));

    const enc = await run(
      exes[i]!,
      batches.map((b) => encodeLine(m, b)),
    );
    expect(enc.stderr).toBe("");
    expect(enc.lines).toEqual(ours.map((b) => `OK ${hex(b)}`));

    // one byte short of room: the packer says so instead of writing past the buffer
    const cap = await run(
      exes[i]!,
      batches.slice(0, 40).map((b, j) => encodeLine(m, b, ours[j]!.length - 1)),
    );
    expect(cap.lines).toEqual(batches.slice(0, 40).map(() => "ERR -1"));

    const dec = await run(
      exes[i]!,
      ours.map((b) => `D ${c.n} ${hex(b)}`),
    );
    expect(dec.stderr).toBe("");
    dec.lines.forEach((line, j) => {
      const want = cView(m, codec.decode(ours[j]!));
      if (!line.startsWith("OK ") || !isDeepStrictEqual(parseDecoded(m, line), want))
        expect(line, `message ${j}: ${hex(ours[j]!)}`).toBe(JSON.stringify(want));
    });

    // every truncation of 20 messages: both refuse
    const cuts = ours.slice(0, 20).flatMap((b) => Array.from({ length: b.length }, (_, k) => b.slice(0, k)));
    const trunc = await run(
      exes[i]!,
      cuts.map((b) => `D ${c.n} ${hex(b)}`),
    );
    cuts.forEach((b, j) => {
      expect(tsDecode(codec, b), hex(b)).toBeUndefined();
      expect(trunc.lines[j], hex(b)).toMatch(/^ERR -\d+$/);
    });

    // mutated messages: the same verdict, and the same readings when both accept
    const rng = new Prng(77);
    const bad = ours.slice(0, 200).flatMap((b) => [mutate(b, rng), mutate(b, rng)]);
    const mut = await run(
      exes[i]!,
      bad.map((b) => `D ${c.n} ${hex(b)}`),
    );
    expect(mut.stderr).toBe("");
    let refused = 0;
    bad.forEach((b, j) => {
      const t = tsDecode(codec, b);
      const line = mut.lines[j]!;
      if (t === undefined) {
        refused++;
        if (!line.startsWith("ERR ")) expect.fail(`C accepted ${hex(b)} that TypeScript refuses: ${line}`);
      } else if (!line.startsWith("OK ") || !isDeepStrictEqual(parseDecoded(m, line), cView(m, t)))
        expect(line, `mutated ${hex(b)}`).toBe(JSON.stringify(cView(m, t)));
    });
    expect(refused).toBeGreaterThan(40);
  }, 120_000);

  it("refuses a count over the limit, no reading and too little room with an error code, as TypeScript does", async () => {
    const c = CASES[i]!;
    const m = models[i]!;
    const codec = batchCodecFor(c.layout, c.format, c.form, c.n);
    const [b] = generateBatches(c.layout, 1, c.n + 1, 9);
    const over = b!;
    const none = { once: over.once, readings: [] };
    expect(() => codec.encode(over)).toThrow(EncodeError);
    expect(() => codec.encode(none)).toThrow(EncodeError);
    const full = { once: over.once, readings: over.readings.slice(0, c.n) };
    const bytes = codec.encode(full);
    const r = await run(exes[i]!, [encodeLine(m, over), encodeLine(m, none), `D ${c.n - 1} ${hex(bytes)}`]);
    expect(r.stderr).toBe("");
    expect(r.lines).toEqual(["ERR -5", "ERR -5", "ERR -1"]);
  });
});

describe("a change faster than the declared rate", () => {
  it("is an error code in C where TypeScript throws EncodeError, never a message", async () => {
    const i = CASES.findIndex((c) => c.name === "tracker" && c.form === "delta" && c.format === "bitpacked");
    const c = CASES[i]!;
    const codec = batchCodecFor(c.layout, c.format, c.form, c.n);
    const [b] = generateBatches(c.layout, 1, 4, 3);
    const jumped = structuredClone(b!);
    // 0.0002 °/s declared: a reading 900 s later may move 0.18°, this one moves 1°
    jumped.readings[2]!.latitude = (jumped.readings[1]!.latitude as number) + 1;
    expect(() => codec.encode(jumped)).toThrow(/latitude|Latitude/);
    const r = await run(exes[i]!, [encodeLine(models[i]!, b!), encodeLine(models[i]!, jumped)]);
    expect(r.stderr).toBe("");
    expect(r.lines[0]).toBe(`OK ${hex(codec.encode(b!))}`);
    expect(r.lines[1]).toBe("ERR -4");
  });
});

describe("without libm", () => {
  it("the delta encoder/decoder links with libc only (no builtins) and writes the studio's bytes", async () => {
    const i = CASES.findIndex((c) => c.name === "mix" && c.form === "delta" && c.format === "bitpacked");
    const c = CASES[i]!;
    const m = models[i]!;
    const plan = batchPlanFor(c.layout, c.form, c.n);
    const files = generateCBatch(c.layout, plan, c.format);
    work.write(files, "nolibm");
    work.writeText("nolibm/h.c", batchHarness(m.reading, m.once, batchNames(m, plan, c.format)));
    const sources = files.filter((f) => f.path.endsWith(".c")).map((f) => `nolibm/${f.path}`);
    await gccAsync(work, [...STRICT, "-O2", "-fno-builtin", "-Inolibm", "-o", "nolibm/h", "nolibm/h.c", ...sources]);
    const codec = batchCodecFor(c.layout, c.format, c.form, c.n);
    const batches = generateBatches(c.layout, 60, c.n, 8);
    const r = await run(
      work.path("nolibm/h"),
      batches.map((b) => encodeLine(m, b)),
    );
    expect(r.lines).toEqual(batches.map((b) => `OK ${hex(codec.encode(b))}`));
  });
});
