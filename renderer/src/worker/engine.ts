// The worker's work, free of worker plumbing so tests can run it in Node: samples, sizes, attribution, byte map, with reuse.
import { CODECS, type FormatId, type FormatSizes, type Layout, type TypedRecord } from "#codecs";
import { attribute } from "#codecs/analysis/attribution.ts";
import { byteMap } from "#codecs/analysis/bytemap.ts";
import { IncrementalSizes } from "#codecs/analysis/columns.ts";
import { DeflateSizes } from "#codecs/analysis/deflateSizes.ts";
import { recordAt, SampleColumns, type SampleColumn } from "#codecs/analysis/sampleColumns.ts";
import type { ComputeRequest, FormatResult, WorkerResult } from "./protocol.ts";

type Now = () => number;
type SizesResult = Extract<WorkerResult, { type: "sizes" }>;
type AttributionResult = Extract<WorkerResult, { type: "attribution" }>;
type ByteMapResult = Extract<WorkerResult, { type: "bytemap" }>;

/** Large runs are drawn after this many samples, then refined. */
export const FIRST_PASS = 1000;
/** Refinement goes on in steps of this many samples, so a newer request waits at most one step. */
export const REFINE_STEP = 2000;

export class Engine {
  private layoutKey = -1;
  private layout: Layout | null = null;
  private columnsKey = "";
  private columns: SampleColumn[] = [];
  private recordsKey = "";
  private records: TypedRecord[] = [];
  private readonly sampleColumns = new SampleColumns();
  private readonly incremental = new IncrementalSizes();
  private readonly deflate = new DeflateSizes();
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
      this.columnsKey = this.recordsKey = this.sizesKey = this.attributionKey = this.byteMapKey = "";
      this.sizesOut = this.attributionOut = this.byteMapOut = null;
    }
    return this.layout;
  }

  /** The layout's sample columns; only fields whose definition changed are drawn again. */
  private samples(layout: Layout, n: number, seed: number): { columns: SampleColumn[]; ms: number } {
    const key = `${n}/${seed}`;
    if (key === this.columnsKey) return { columns: this.columns, ms: 0 };
    const t0 = this.now();
    this.columns = this.sampleColumns.columnsOf(layout, n, seed).columns;
    this.columnsKey = key;
    return { columns: this.columns, ms: this.now() - t0 };
  }

  /** Whole records, for the phases that encode with spans (attribution). */
  private recordsOf(layout: Layout, n: number, seed: number): TypedRecord[] {
    const { columns } = this.samples(layout, n, seed);
    const key = `${n}/${seed}`;
    if (key !== this.recordsKey) {
      this.records = Array.from({ length: n }, (_, i) => recordAt(columns, i));
      this.recordsKey = key;
    }
    return this.records;
  }

  /**
   * Sizes of the first `upTo` samples (all by default) per format: size-only columns, re-measured
   * only for fields that changed; Struct+Zlib compresses the samples whose stream changed.
   */
  sizes(req: ComputeRequest, upTo = req.samples): SizesResult {
    const layout = this.adopt(req);
    const end = Math.min(upTo, req.samples);
    const key = `${req.samples}/${req.seed}/${req.formats.join(",")}/${end}`;
    if (key === this.sizesKey && this.sizesOut) return { ...this.sizesOut, seq: req.seq };
    const { columns, ms: generate } = this.samples(layout, req.samples, req.seed);
    const generation = `${req.samples}/${req.seed}`;
    const perFormat: Partial<Record<FormatId, number>> = {};
    const results: FormatResult[] = [];
    let remeasured = 0;
    const t0 = this.now();
    for (const format of req.formats) {
      const t = this.now();
      let m: FormatSizes & { measured: number };
      if (CODECS[format].info.compressed) m = this.deflate.measure(layout, columns, req.samples, generation, end);
      else {
        const c = this.incremental.measure(layout, columns, req.samples, generation, format, end);
        remeasured += c.remeasured;
        m = c;
      }
      perFormat[format] = this.now() - t;
      results.push({
        info: CODECS[format].info,
        stats: m.stats,
        sizes: m.sizes,
        measured: m.measured,
        errors: m.errors,
        firstError: m.firstError ?? null,
        firstErrorSample: m.firstErrorSample ?? null,
      });
    }
    this.incremental.prune();
    this.sizesKey = key;
    this.sizesOut = {
      type: "sizes",
      seq: req.seq,
      layoutKey: req.layoutKey,
      samples: req.samples,
      seed: req.seed,
      results,
      timings: { generate, measure: this.now() - t0, perFormat, remeasured },
    };
    return this.sizesOut;
  }

  /** Per-field shares; null when the request does not ask for them (the tab is hidden). */
  attribution(req: ComputeRequest): AttributionResult | null {
    if (!req.attribution) return null;
    const layout = this.adopt(req);
    const key = `${req.samples}/${req.seed}/${req.formats.join(",")}`;
    if (key === this.attributionKey && this.attributionOut) return { ...this.attributionOut, seq: req.seq };
    const records = this.recordsOf(layout, req.samples, req.seed);
    const t0 = this.now();
    const items = req.formats.map((f) => attribute(layout, records, f));
    this.attributionKey = key;
    this.attributionOut = {
      type: "attribution",
      seq: req.seq,
      layoutKey: req.layoutKey,
      samples: req.samples,
      seed: req.seed,
      items,
      ms: this.now() - t0,
    };
    return this.attributionOut;
  }

  /** One sample's bytes and owners in one format; null when not asked for. */
  byteMap(req: ComputeRequest): ByteMapResult | null {
    if (!req.byteMap) return null;
    const layout = this.adopt(req);
    const sample = Math.max(0, Math.min(req.byteMap.sample, req.samples - 1));
    const key = `${req.samples}/${req.seed}/${req.byteMap.format}/${sample}`;
    if (key === this.byteMapKey && this.byteMapOut) return { ...this.byteMapOut, seq: req.seq };
    const { columns } = this.samples(layout, req.samples, req.seed);
    const record = req.samples > 0 ? recordAt(columns, sample) : undefined;
    const t0 = this.now();
    const base = {
      type: "bytemap" as const,
      seq: req.seq,
      layoutKey: req.layoutKey,
      samples: req.samples,
      seed: req.seed,
      format: req.byteMap.format,
      sample,
    };
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

/** Sample counts the sizes are computed up to, in order: a first pass, silent steps, then all of them (posted). */
export function passes(samples: number): { upTo: number; post: boolean }[] {
  if (samples <= FIRST_PASS) return [{ upTo: samples, post: true }];
  const out = [{ upTo: FIRST_PASS, post: true }];
  for (let k = FIRST_PASS + REFINE_STEP; k < samples; k += REFINE_STEP) out.push({ upTo: k, post: false });
  out.push({ upTo: samples, post: true });
  return out;
}

/**
 * Latest wins: requests that arrive while one is computed replace each other, and between the
 * phases (sizes → refinement → byte map → attribution) the running one gives up when a newer one waits.
 */
export class Scheduler {
  private pending: ComputeRequest | null = null;
  private running = false;
  /** the request whose remaining phases were cancelled */
  private cancelled = -1;

  constructor(
    private readonly engine: Engine,
    private readonly post: (r: WorkerResult) => void,
    /** lets queued messages in (a macrotask in the worker) */
    private readonly yieldToEvents: () => Promise<void>,
    /**
     * waited once before refining a large run: the page is drawing the first pass then, and on a
     * machine with few cores the refinement would take the core it draws on
     */
    private readonly beforeRefining: () => Promise<void> = yieldToEvents,
  ) {}

  submit(req: ComputeRequest): void {
    this.pending = req;
    if (!this.running) void this.drain();
  }

  /** Gives up request `seq` between two phases (or before it starts); a later request runs as usual. */
  cancel(seq: number): void {
    this.cancelled = seq;
    if (this.pending?.seq === seq) this.pending = null;
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
    const [first, ...refine] = passes(req.samples);
    // the byte map is one sample: it goes right after the first bars, before any refinement
    const phases: (() => WorkerResult | null)[] = [
      () => this.engine.sizes(req, first!.upTo),
      () => this.engine.byteMap(req),
      ...refine.map((p) => (): WorkerResult => {
        const out = this.engine.sizes(req, p.upTo);
        if (p.post) return out;
        const { seq, layoutKey, samples, seed } = req;
        return { type: "progress", seq, layoutKey, samples, seed, measured: p.upTo };
      }),
      () => this.engine.attribution(req),
    ];
    for (let i = 0; i < phases.length; i++) {
      const phase = phases[i]!;
      if (i === 2 && refine.length) await this.beforeRefining();
      if (this.pending || this.cancelled === req.seq) return;
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
