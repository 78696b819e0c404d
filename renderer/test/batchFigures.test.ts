// The Readings per message figures the sizes workers compute (issue #27): the same numbers the batch codec gives, a
// per-field split that adds up to the message, the "fit" count filling its platform, and the scheduler posting them
// format by format only when the view asks.
import { describe, expect, it } from "vitest";
import {
  batchCodecFor,
  type FormatId,
  generateBatches,
  type Layout,
  paperPreset,
  parseLayout,
  readingsThatFit,
} from "#codecs";
import { suggestBatch, withBatch } from "../src/pages/designer/edits/batch.ts";
import { BATCH_MESSAGES, batchFigures } from "../src/worker/batchFigures.ts";
import { Engine, Scheduler } from "../src/worker/engine.ts";
import type { BatchAsk, ComputeRequest, WorkerResult } from "../src/worker/protocol.ts";

const paper = parseLayout(paperPreset);
const tracker = (readings: NonNullable<Layout["batch"]>["readings"]): Layout =>
  parseLayout(withBatch(paper, { ...suggestBatch(paper, null), readings }));
const ASK: BatchAsk = {
  limits: [
    { id: "kineis", bytes: 30 },
    { id: "astrocast", bytes: 160 },
  ],
};

describe("batch figures of one format", () => {
  it("size N readings per message as the batch codec does, and split the first message by field", () => {
    const layout = tracker({ kind: "fixed", count: 6 });
    const first = generateBatches(layout, BATCH_MESSAGES, 6, 1)[0]!;
    for (const format of ["protobuf", "cbor", "bitpacked"] as FormatId[]) {
      const got = batchFigures(layout, format, ASK, 1);
      expect(got.forms.map((f) => f.form)).toEqual(["columns", "delta"]);
      for (const r of got.forms) {
        expect(r.error, `${format} ${r.form}`).toBeNull();
        expect(r.readings).toBe(6);
        expect(r.stats!.count).toBe(BATCH_MESSAGES);
        for (const l of ASK.limits) expect(r.fits[l.id]).toBe(readingsThatFit(layout, format, r.form, l.bytes, 1));
        // every byte of the first message is a field's (once, first reading, N − 1 next ones) or framing
        const bytes = batchCodecFor(layout, format, r.form, 6).encode(first).length;
        const sum = r.fields.reduce((s, f) => s + f.once + f.first + f.next * 5, r.framing);
        expect(sum, `${format} ${r.form}`).toBeCloseTo(bytes, 6);
        const once = r.fields.find((f) => f.field === "msisdn")!;
        expect(once.once).toBeGreaterThan(0);
        expect(once.first + once.next).toBe(0);
        const lat = r.fields.find((f) => f.field === "latitude")!;
        expect(lat.once).toBe(0);
        expect(lat.first).toBeGreaterThan(0);
      }
    }
  });

  it("fills the batch's own platform: as many readings as fit, every message within its limit", () => {
    const layout = tracker({ kind: "fit", platform: "astrocast" });
    const got = batchFigures(layout, "protobuf", ASK, 1);
    for (const r of got.forms) {
      expect(r.readings).toBe(r.fits.astrocast);
      expect(r.readings).toBeGreaterThan(0);
      expect(r.stats!.max).toBeLessThanOrEqual(160);
    }
  });

  it("says why when not even one reading fits, instead of sizing nothing silently", () => {
    const layout = tracker({ kind: "fit", platform: "tiny" });
    const got = batchFigures(layout, "json", { limits: [{ id: "tiny", bytes: 4 }] }, 1);
    for (const r of got.forms) {
      expect(r.readings).toBe(0);
      expect(r.stats).toBeNull();
      expect(r.error).toMatch(/Not even one reading fits/);
    }
  });
});

describe("the scheduler and batch figures", () => {
  const request = (seq: number, batch: BatchAsk | null): ComputeRequest => ({
    type: "compute",
    seq,
    layoutKey: seq,
    layout: tracker({ kind: "fixed", count: 4 }),
    samples: 100,
    seed: 1,
    formats: ["protobuf", "json"],
    attribution: false,
    byteMap: null,
    batch,
  });

  /** A scheduler whose yields wait for flush(): the test decides when queued messages get in. */
  function scheduler() {
    const posted: WorkerResult[] = [];
    let tick: (() => void)[] = [];
    const yieldToEvents = () => new Promise<void>((r) => tick.push(r));
    const engine = new Engine(() => 0);
    // the forms worked out, in order
    const forms: string[] = [];
    const batch = engine.batch.bind(engine);
    engine.batch = (req, format, form) => {
      forms.push(`${req.seq} ${format} ${form}`);
      return batch(req, format, form);
    };
    const s = new Scheduler(
      engine,
      (r) => posted.push(r),
      yieldToEvents,
      undefined,
      () => 0,
    );
    const step = async () => {
      const t = tick;
      tick = [];
      t.forEach((r) => r());
      await new Promise((r) => setTimeout(r, 0));
    };
    const flush = async () => {
      while (tick.length) await step();
    };
    return { s, posted, step, flush, forms };
  }
  const batches = (posted: WorkerResult[]) =>
    posted.flatMap((r) => (r.type === "batch" ? [[r.seq, r.items[0]!.format, r.ask]] : []));

  it("posts one batch answer per format of the request when asked, none otherwise", async () => {
    const { s, posted, flush } = scheduler();
    s.submit(request(1, ASK));
    await flush();
    expect(batches(posted)).toEqual([
      [1, "protobuf", "kineis:30,astrocast:160"],
      [1, "json", "kineis:30,astrocast:160"],
    ]);
    posted.length = 0;
    s.submit(request(2, null));
    await flush();
    expect(posted.map((r) => r.type)).toContain("sizes");
    expect(batches(posted)).toEqual([]);
  });

  it("gives the batch phase up between the two forms of a format when a newer request (a keystroke) waits", async () => {
    const { s, posted, step, flush, forms } = scheduler();
    s.submit(request(1, ASK));
    while (forms.length === 0) await step();
    s.submit(request(2, null));
    await flush();
    // the columns form was worked out, the delta form never started, and no half answer was posted
    expect(forms).toEqual(["1 protobuf columns"]);
    expect(batches(posted)).toEqual([]);
    expect(posted.filter((r) => r.type === "sizes").map((r) => r.seq)).toEqual([1, 2]);
  });

  it("gives the batch phase up between two formats when a newer request (a keystroke) waits", async () => {
    const { s, posted, step, flush } = scheduler();
    s.submit(request(1, ASK));
    // until the first batch answer is out, then a newer request arrives
    while (!posted.some((r) => r.type === "batch")) await step();
    s.submit(request(2, null));
    await flush();
    expect(batches(posted)).toEqual([[1, "protobuf", "kineis:30,astrocast:160"]]);
    expect(posted.filter((r) => r.type === "sizes").map((r) => r.seq)).toEqual([1, 2]);
  });
});
