import { describe, expect, it } from "vitest";
import { FORMAT_IDS, generateSamples, measureSizes, paperPreset, parseLayout } from "#codecs";
import { attribute, byteMap } from "#codecs/analysis";
import { Engine, ESTIMATE, MILESTONE, RunPlan, Scheduler } from "../src/worker/engine.ts";
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
    batch: null,
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
    // a clock that never moves: no pass is slow enough for an estimate, so each request posts its sizes once
    const s = new Scheduler(
      engine,
      (r) => posted.push(r),
      yieldToEvents,
      undefined,
      () => 0,
    );
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

  it("posts a large run at its first milestone, then refines it to every sample", async () => {
    const posted: WorkerResult[] = [];
    // a clock that never moves: every pass looks instant, so no estimate is worth posting
    const s = new Scheduler(
      new Engine(() => 0),
      (r) => posted.push(r),
      () => new Promise((r) => setTimeout(r, 0)),
      undefined,
      () => 0,
    );
    s.submit(request(1, { samples: 2500, formats: ["protobuf", "struct-zlib"] }));
    // expect.poll gives up after 1 s by default: 2 500 samples in two formats can take longer on a busy machine
    await expect.poll(() => posted.length, { timeout: 60_000 }).toBe(2);
    const [first, last] = posted as Extract<WorkerResult, { type: "sizes" }>[];
    expect(first!.results.map((r) => [r.measured, r.stats.count])).toEqual([
      [MILESTONE, MILESTONE],
      [MILESTONE, MILESTONE],
    ]);
    const all = measureSizes(paper, generateSamples(paper, 2500, 1), ["protobuf", "struct-zlib"]);
    expect(last!.results.map((r) => [r.measured, r.stats])).toEqual(all.map((m) => [2500, m.stats]));
  });

  it("posts a first estimate when the rest would keep the bars waiting, reports progress, and stops when cancelled", async () => {
    const posted: WorkerResult[] = [];
    let tick: (() => void)[] = [];
    const step = async () => {
      const t = tick;
      tick = [];
      t.forEach((r) => r());
      await new Promise((r) => setTimeout(r, 0));
    };
    // every pass takes 15 ms whatever its size: the estimate of 100 predicts 135 ms more to the milestone
    let clock = 0;
    const s = new Scheduler(
      new Engine(() => 0),
      (r) => posted.push(r),
      () => new Promise<void>((r) => tick.push(r)),
      undefined,
      () => (clock += 15),
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
      ["sizes", 1, ESTIMATE],
      ["progress", 1, 500],
    ]);
    // the estimate is exact for the samples it covers
    const estimate = posted[0] as Extract<WorkerResult, { type: "sizes" }>;
    const [want] = measureSizes(paper, generateSamples(paper, ESTIMATE, 1), ["protobuf"]);
    expect(estimate.results[0]!.stats).toEqual(want!.stats);
    s.cancel(1);
    for (let i = 0; i < 10; i++) await step();
    // nothing more for the cancelled request: no further progress, no refined sizes
    expect(shape()).toEqual([
      ["sizes", 1, ESTIMATE],
      ["progress", 1, 500],
    ]);

    posted.length = 0;
    s.submit(big(2));
    while (!posted.some((p) => p.type === "sizes" && p.results[0]!.measured === 7000)) await step();
    expect(shape()).toEqual([
      ["sizes", 2, ESTIMATE],
      ["progress", 2, 500],
      ["sizes", 2, MILESTONE],
      ["progress", 2, 3000],
      ["sizes", 2, 7000],
    ]);
  });
});

describe("run plan", () => {
  const walk = (samples: number, msPerPass: (upTo: number, done: number) => number) => {
    const plan = new RunPlan(samples);
    const out: [number, string][] = [];
    let done = 0;
    for (let upTo = plan.next(); upTo !== null; upTo = plan.next()) {
      out.push([upTo, plan.measured(upTo, msPerPass(upTo, done))]);
      done = upTo;
    }
    return out;
  };

  it("measures every sample at once after a quick estimate, which it does not post", () => {
    expect(walk(1000, () => 1)).toEqual([
      [ESTIMATE, "progress"],
      [1000, "post"],
    ]);
    expect(walk(60, () => 50)).toEqual([[60, "post"]]);
  });

  it("posts the estimate when the rest would take longer than a frame, then steps to the end", () => {
    // 0.1 ms a sample: 90 ms for the rest of a 1 000-sample run
    expect(walk(1000, (upTo, done) => (upTo - done) / 10)).toEqual([
      [ESTIMATE, "post"],
      [700, "progress"],
      [1000, "post"],
    ]);
  });

  it("posts a large run at the milestone and at its end, with progress between", () => {
    const steps = walk(10_000, (upTo, done) => (upTo - done) / 20);
    expect(steps.filter(([, what]) => what === "post").map(([n]) => n)).toEqual([ESTIMATE, MILESTONE, 10_000]);
    // each step is about STEP_MS of work at the rate measured: 1 200 samples at 20 a ms
    expect(steps.filter(([n]) => n > MILESTONE).map(([n]) => n)).toEqual([
      2200, 3400, 4600, 5800, 7000, 8200, 9400, 10_000,
    ]);
  });
});
