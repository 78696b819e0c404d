import { describe, expect, it } from "vitest";
import { FORMAT_IDS, generateSamples, measureSizes, paperPreset, parseLayout } from "#codecs";
import { attribute } from "#codecs/analysis/attribution.ts";
import { byteMap } from "#codecs/analysis/bytemap.ts";
import { Engine, FIRST_PASS, passes, Scheduler } from "../src/worker/engine.ts";
import type { ComputeRequest, WorkerResult } from "../src/worker/protocol.ts";

const paper = parseLayout(paperPreset);

function request(seq: number, over: Partial<ComputeRequest> = {}): ComputeRequest {
  return {
    type: "compute",
    seq,
    layoutKey: 1,
    layout: paper,
    samples: 200,
    seed: 1,
    formats: FORMAT_IDS,
    attribution: false,
    byteMap: null,
    ...over,
  };
}

describe("worker engine", () => {
  it("gives exactly what the analysis functions give for the same samples", () => {
    const engine = new Engine(() => 0);
    const out = engine.sizes(request(1));
    const records = generateSamples(paper, 200, 1);
    const direct = measureSizes(paper, records);
    expect(out.results.map((r) => [r.info.id, r.stats, Array.from(r.sizes), r.errors])).toEqual(
      direct.map((d) => [d.format, d.stats, Array.from(d.sizes), d.errors]),
    );
    const att = engine.attribution(request(2, { attribution: true }))!;
    expect(att.items).toEqual(FORMAT_IDS.map((f) => attribute(paper, records, f)));
    const bm = engine.byteMap(request(3, { byteMap: { format: "struct-zlib", sample: 7 } }))!;
    expect(bm.map).toEqual(byteMap(paper, records[7]!, "struct-zlib"));
    expect(bm.sample).toBe(7);
  });

  it("reproduces the paper's Table 2 means within 6 bytes at 1000 samples, seed 1", () => {
    const out = new Engine(() => 0).sizes(request(1, { samples: 1000 }));
    const mean = (id: string) => out.results.find((r) => r.info.id === id)!.stats.mean;
    const table2 = { json: 418, cbor: 298, msgpack: 301, protobuf: 138, "struct-zlib": 127 };
    for (const [id, bytes] of Object.entries(table2)) expect(Math.abs(mean(id) - bytes), id).toBeLessThanOrEqual(6);
  });

  it("re-sends a repeated phase without recomputing it and recomputes when the layout key moves", () => {
    let clock = 0;
    const engine = new Engine(() => clock++);
    const first = engine.sizes(request(1));
    const again = engine.sizes(request(2));
    expect(again.seq).toBe(2);
    expect(again.results).toBe(first.results);
    const other = engine.sizes(request(3, { layoutKey: 2 }));
    expect(other.results).not.toBe(first.results);
    expect(other.timings.generate).toBeGreaterThan(0);
    // same layout, other seed: new samples
    const seeded = engine.sizes(request(4, { layoutKey: 2, seed: 9 }));
    expect(seeded.results[0]!.sizes).not.toEqual(other.results[0]!.sizes);
  });

  it("clamps the byte-map sample into range and reports unencodable samples as an error, not a throw", () => {
    const engine = new Engine(() => 0);
    expect(engine.byteMap(request(1, { byteMap: { format: "json", sample: 10_000 } }))!.sample).toBe(199);
    const tiny = parseLayout({
      format: "satlayout",
      version: 1,
      name: "t",
      fields: [
        {
          id: "s",
          key: "s",
          name: "s",
          type: { kind: "string", maxLength: 2 },
          sample: { kind: "constant", value: "toolong" },
        },
      ],
    });
    const bm = engine.byteMap({
      ...request(2, { layoutKey: 5, layout: tiny, byteMap: { format: "protobuf", sample: 0 } }),
    })!;
    expect(bm.map).toBeNull();
    expect(bm.error).toMatch(/protobuf/);
  });
});

describe("latest-wins scheduler", () => {
  it("collapses a burst into its last request and abandons phases once a newer one waits", async () => {
    const posted: WorkerResult[] = [];
    const engine = new Engine(() => 0);
    let tick: (() => void)[] = [];
    const yieldToEvents = () => new Promise<void>((r) => tick.push(r));
    const flush = async () => {
      while (tick.length) {
        const t = tick;
        tick = [];
        t.forEach((r) => r());
        await new Promise((r) => setTimeout(r, 0));
      }
    };
    const s = new Scheduler(engine, (r) => posted.push(r), yieldToEvents);
    s.submit(request(1, { layoutKey: 1 }));
    s.submit(request(2, { layoutKey: 2 }));
    s.submit(request(3, { layoutKey: 3, attribution: true, byteMap: { format: "json", sample: 0 } }));
    await flush();
    expect(posted.map((p) => [p.type, p.seq])).toEqual([
      ["sizes", 3],
      ["bytemap", 3],
      ["attribution", 3],
    ]);

    posted.length = 0;
    s.submit(request(4, { layoutKey: 4, attribution: true }));
    // let request 4 post its sizes, then a newer one arrives before its attribution phase
    tick.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(posted.map((p) => [p.type, p.seq])).toEqual([["sizes", 4]]);
    s.submit(request(5, { layoutKey: 5 }));
    await flush();
    expect(posted.map((p) => [p.type, p.seq])).toEqual([
      ["sizes", 4],
      ["sizes", 5],
    ]);
  });

  it("reports a failing phase as an error message for that request", async () => {
    const posted: WorkerResult[] = [];
    const engine = new Engine(() => 0);
    engine.sizes = () => {
      throw new RangeError("boom");
    };
    const s = new Scheduler(
      engine,
      (r) => posted.push(r),
      () => Promise.resolve(),
    );
    s.submit(request(9));
    await new Promise((r) => setTimeout(r, 0));
    expect(posted).toEqual([{ type: "error", seq: 9, message: "RangeError: boom" }]);
  });

  it("draws a large run after the first pass, then refines it to every sample", async () => {
    expect(passes(FIRST_PASS)).toEqual([{ upTo: FIRST_PASS, post: true }]);
    expect(passes(5000).map((p) => [p.upTo, p.post])).toEqual([
      [1000, true],
      [3000, false],
      [5000, true],
    ]);
    const posted: WorkerResult[] = [];
    const s = new Scheduler(
      new Engine(() => 0),
      (r) => posted.push(r),
      () => new Promise((r) => setTimeout(r, 0)),
    );
    s.submit(request(1, { samples: 2500, formats: ["protobuf", "struct-zlib"] }));
    await expect.poll(() => posted.length).toBe(2);
    const [first, last] = posted as Extract<WorkerResult, { type: "sizes" }>[];
    expect(first!.results.map((r) => [r.measured, r.stats.count])).toEqual([
      [1000, 1000],
      [1000, 1000],
    ]);
    const all = measureSizes(paper, generateSamples(paper, 2500, 1), ["protobuf", "struct-zlib"]);
    expect(last!.results.map((r) => [r.measured, r.stats])).toEqual(all.map((m) => [2500, m.stats]));
  });

  it("reports a large run's refinement as progress, and stops it when cancelled; the next request runs in full", async () => {
    const posted: WorkerResult[] = [];
    let tick: (() => void)[] = [];
    const step = async () => {
      const t = tick;
      tick = [];
      t.forEach((r) => r());
      await new Promise((r) => setTimeout(r, 0));
    };
    const s = new Scheduler(
      new Engine(() => 0),
      (r) => posted.push(r),
      () => new Promise<void>((r) => tick.push(r)),
    );
    const big = (seq: number) => request(seq, { samples: 7000, formats: ["protobuf"] });
    const shape = () =>
      posted.map((p) => [
        p.type,
        p.seq,
        p.type === "progress" ? p.measured : p.type === "sizes" ? p.results[0]!.measured : 0,
      ]);

    s.submit(big(1));
    while (!posted.some((p) => p.type === "progress")) await step();
    expect(shape()).toEqual([
      ["sizes", 1, 1000],
      ["progress", 1, 3000],
    ]);
    s.cancel(1);
    for (let i = 0; i < 10; i++) await step();
    // nothing more for the cancelled request: no further progress, no refined sizes
    expect(shape()).toEqual([
      ["sizes", 1, 1000],
      ["progress", 1, 3000],
    ]);

    posted.length = 0;
    s.submit(big(2));
    while (!posted.some((p) => p.type === "sizes" && p.results[0]!.measured === 7000)) await step();
    expect(shape()).toEqual([
      ["sizes", 2, 1000],
      ["progress", 2, 3000],
      ["progress", 2, 5000],
      ["sizes", 2, 7000],
    ]);
  });
});
