// The worker's work, free of worker plumbing so tests can run it in Node: samples, sizes, attribution, byte map, with reuse.
import { attribute } from "../../../codecs/src/analysis/attribution.ts";
import { byteMap } from "../../../codecs/src/analysis/bytemap.ts";
import { measureSizes } from "../../../codecs/src/analysis/sizes.ts";
import { CODECS } from "../../../codecs/src/formats/registry.ts";
import type { FormatId } from "../../../codecs/src/formats/types.ts";
import type { Layout } from "../../../codecs/src/layout/schema.ts";
import type { TypedRecord } from "../../../codecs/src/layout/values.ts";
import type { ComputeRequest, FormatResult, WorkerResult } from "./protocol.ts";
import { SampleColumns } from "../../../codecs/src/analysis/sampleColumns.ts";

type Now = () => number;
type SizesResult = Extract<WorkerResult, { type: "sizes" }>;
type AttributionResult = Extract<WorkerResult, { type: "attribution" }>;
type ByteMapResult = Extract<WorkerResult, { type: "bytemap" }>;

export class Engine {
  private layoutKey = -1;
  private layout: Layout | null = null;
  private samplesKey = "";
  private records: TypedRecord[] = [];
  private readonly columns = new SampleColumns();
  // the last answer of each phase, re-sent (not recomputed) when a request repeats it: the UI may have
  // dropped the first copy because its inputs moved on and then came back
  private sizesKey = "";
  private sizesOut: SizesResult | null = null;
  private attributionKey = "";
  private attributionOut: AttributionResult | null = null;
  private byteMapKey = "";
  private byteMapOut: ByteMapResult | null = null;

  constructor(private readonly now: Now) {}

  /** Keeps the first copy of a layout so the codec cache (keyed by object identity) survives repeated requests. */
  private adopt(req: ComputeRequest): Layout {
    if (req.layoutKey !== this.layoutKey || !this.layout) {
      this.layoutKey = req.layoutKey;
      this.layout = req.layout;
      this.samplesKey = this.sizesKey = this.attributionKey = this.byteMapKey = "";
      this.sizesOut = this.attributionOut = this.byteMapOut = null;
    }
    return this.layout;
  }

  private samples(layout: Layout, n: number, seed: number): { records: TypedRecord[]; ms: number } {
    const key = `${n}/${seed}`;
    if (key === this.samplesKey) return { records: this.records, ms: 0 };
    const t0 = this.now();
    this.records = this.columns.records(layout, n, seed).records;
    this.samplesKey = key;
    return { records: this.records, ms: this.now() - t0 };
  }

  /** Sizes of every sample per format. */
  sizes(req: ComputeRequest): SizesResult {
    const layout = this.adopt(req);
    const key = `${req.samples}/${req.seed}/${req.formats.join(",")}`;
    if (key === this.sizesKey && this.sizesOut) return { ...this.sizesOut, seq: req.seq };
    const { records, ms: generate } = this.samples(layout, req.samples, req.seed);
    const perFormat: Partial<Record<FormatId, number>> = {};
    const results: FormatResult[] = [];
    const t0 = this.now();
    for (const format of req.formats) {
      const t = this.now();
      const [m] = measureSizes(layout, records, [format]);
      perFormat[format] = this.now() - t;
      results.push({
        info: CODECS[format].info,
        stats: m!.stats,
        sizes: m!.sizes,
        errors: m!.errors,
        firstError: m!.firstError ?? null,
        firstErrorSample: m!.firstErrorSample ?? null,
      });
    }
    this.sizesKey = key;
    this.sizesOut = { type: "sizes", seq: req.seq, layoutKey: req.layoutKey, samples: req.samples, seed: req.seed, results, timings: { generate, measure: this.now() - t0, perFormat } };
    return this.sizesOut;
  }

  /** Per-field shares; null when the request does not ask for them (the tab is hidden). */
  attribution(req: ComputeRequest): AttributionResult | null {
    if (!req.attribution) return null;
    const layout = this.adopt(req);
    const key = `${req.samples}/${req.seed}/${req.formats.join(",")}`;
    if (key === this.attributionKey && this.attributionOut) return { ...this.attributionOut, seq: req.seq };
    const { records } = this.samples(layout, req.samples, req.seed);
    const t0 = this.now();
    const items = req.formats.map((f) => attribute(layout, records, f));
    this.attributionKey = key;
    this.attributionOut = { type: "attribution", seq: req.seq, layoutKey: req.layoutKey, samples: req.samples, seed: req.seed, items, ms: this.now() - t0 };
    return this.attributionOut;
  }

  /** One sample's bytes and owners in one format; null when not asked for. */
  byteMap(req: ComputeRequest): ByteMapResult | null {
    if (!req.byteMap) return null;
    const layout = this.adopt(req);
    const sample = Math.max(0, Math.min(req.byteMap.sample, req.samples - 1));
    const key = `${req.samples}/${req.seed}/${req.byteMap.format}/${sample}`;
    if (key === this.byteMapKey && this.byteMapOut) return { ...this.byteMapOut, seq: req.seq };
    const { records } = this.samples(layout, req.samples, req.seed);
    const record = records[sample];
    const t0 = this.now();
    const base = { type: "bytemap" as const, seq: req.seq, layoutKey: req.layoutKey, samples: req.samples, seed: req.seed, format: req.byteMap.format, sample };
    let out: ByteMapResult;
    if (!record) out = { ...base, map: null, record: null, error: "no samples", ms: 0 };
    else {
      try {
        out = { ...base, map: byteMap(layout, record, req.byteMap.format), record, error: null, ms: this.now() - t0 };
      } catch (e) {
        out = { ...base, map: null, record, error: e instanceof Error ? e.message : String(e), ms: this.now() - t0 };
      }
    }
    this.byteMapKey = key;
    this.byteMapOut = out;
    return out;
  }
}

/**
 * Latest wins: requests that arrive while one is computed replace each other, and between the
 * phases (sizes → attribution → byte map) the running one gives up when a newer one waits.
 */
export class Scheduler {
  private pending: ComputeRequest | null = null;
  private running = false;

  constructor(
    private readonly engine: Engine,
    private readonly post: (r: WorkerResult) => void,
    /** lets queued messages in (a macrotask in the worker) */
    private readonly yieldToEvents: () => Promise<void>,
  ) {}

  submit(req: ComputeRequest): void {
    this.pending = req;
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      // let a burst of keystrokes collapse into its last request before any work starts
      await this.yieldToEvents();
      while (this.pending) {
        const req = this.pending;
        this.pending = null;
        await this.run(req);
      }
    } finally {
      this.running = false;
    }
  }

  private async run(req: ComputeRequest): Promise<void> {
    const phases = [() => this.engine.sizes(req), () => this.engine.byteMap(req), () => this.engine.attribution(req)];
    for (const phase of phases) {
      if (this.pending) return;
      try {
        const out = phase();
        if (out) this.post(out);
      } catch (e) {
        this.post({ type: "error", seq: req.seq, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
        return;
      }
      await this.yieldToEvents();
    }
  }
}
