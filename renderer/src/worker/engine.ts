// The worker's work, free of worker plumbing so tests can run it in Node: samples, sizes, attribution, byte map, with reuse.
import {
  BATCH_FORMS,
  type BatchForm,
  CODECS,
  codecFor,
  type FormatId,
  type FormatSizes,
  type Layout,
  type TypedRecord,
} from "#codecs";
import {
  attribute,
  byteMap,
  DeflateSizes,
  IncrementalSizes,
  recordAt,
  type SampleColumn,
  SampleColumns,
} from "#codecs/analysis";
import { formFigures } from "./batchFigures.ts";
import {
  batchAskKey,
  type BatchFormResult,
  type ComputeRequest,
  type FormatResult,
  type WorkerResult,
} from "./protocol.ts";

type Now = () => number;
type SizesResult = Extract<WorkerResult, { type: "sizes" }>;
type AttributionResult = Extract<WorkerResult, { type: "attribution" }>;
type ByteMapResult = Extract<WorkerResult, { type: "bytemap" }>;
type BatchResult = Extract<WorkerResult, { type: "batch" }>;

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
  /** batch figures per format for the current layout, keyed by seed and ask (a tab switch back re-sends them) */
  private batchOut = new Map<string, BatchResult>();
  /** forms of a format worked out so far, and the ms they took, before its answer is complete */
  private batchForms = new Map<string, Map<BatchForm, BatchFormResult>>();
  private batchMs = new Map<string, number>();

  constructor(private readonly now: Now) {}

  /** Keeps the first copy of a layout so the codec cache (keyed by object identity) survives repeated requests. */
  private adopt(req: ComputeRequest): Layout {
    if (req.layoutKey !== this.layoutKey || !this.layout) {
      this.layoutKey = req.layoutKey;
      this.layout = req.layout;
      this.columnsKey = this.recordsKey = this.sizesKey = this.attributionKey = this.byteMapKey = "";
      this.sizesOut = this.attributionOut = this.byteMapOut = null;
      this.batchOut.clear();
      this.batchForms.clear();
      this.batchMs.clear();
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
    let compile = 0;
    const t0 = this.now();
    for (const format of req.formats) {
      const t = this.now();
      // compiled first, and timed apart: it costs the same whatever share of the samples this pass measures
      try {
        codecFor(layout, format);
      } catch {
        // measure() reports the layout the format cannot express
      }
      compile += this.now() - t;
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
      timings: { generate, measure: this.now() - t0, perFormat, remeasured, compile },
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

  /**
   * One form of one format's Readings per message figures (issue #27), the unit the scheduler runs between two looks
   * at its queue (a form's fit search takes up to a few hundred ms); the format's answer once both forms are in,
   * null before that, or when not asked for, or not this worker's format.
   */
  batch(req: ComputeRequest, format: FormatId, form: BatchForm): BatchResult | null {
    if (!req.batch || !req.formats.includes(format)) return null;
    const layout = this.adopt(req);
    if (!layout.batch) return null;
    const ask = batchAskKey(req.batch);
    const key = `${req.seed}/${ask}/${format}`;
    const had = this.batchOut.get(key);
    if (had) return { ...had, seq: req.seq };
    const t0 = this.now();
    const forms = this.batchForms.get(key) ?? new Map<BatchForm, BatchFormResult>();
    this.batchForms.set(key, forms);
    if (!forms.has(form)) forms.set(form, formFigures(layout, format, form, req.batch, req.seed));
    this.batchMs.set(key, (this.batchMs.get(key) ?? 0) + this.now() - t0);
    if (BATCH_FORMS.some((f) => !forms.has(f))) return null;
    const out: BatchResult = {
      type: "batch",
      seq: req.seq,
      layoutKey: req.layoutKey,
      seed: req.seed,
      ask,
      items: [{ format, forms: BATCH_FORMS.map((f) => forms.get(f)!) }],
      ms: this.batchMs.get(key) ?? 0,
    };
    this.batchOut.set(key, out);
    return out;
  }
}

/** A first estimate is measured over this many samples. */
export const ESTIMATE = 100;
/** Sizes are posted at these sample counts (and at the run's own): a large run shows these while it is refined. */
export const MILESTONE = 1000;
/** The estimate is posted when the rest up to the next milestone would take longer than this (about a frame). */
export const ESTIMATE_WHEN_MS = 12;
/** Passes after the first aim at this long each: a newer request, or Stop, waits at most about one of them. */
export const STEP_MS = 60;

/**
 * The passes of one run over growing prefixes of the samples: a first estimate, then steps sized from the rate the
 * last pass ran at, posted at each milestone and at the end. The estimate is posted only when the rest would keep
 * the bars waiting: an edit whose columns are cached measures every sample in less time than a post and a redraw.
 */
export class RunPlan {
  private done = 0;
  /** samples measured per ms in the last pass */
  private rate = Infinity;
  private posted = false;
  private readonly milestones: number[];

  constructor(readonly samples: number) {
    this.milestones = [...new Set([Math.min(MILESTONE, samples), samples])];
  }

  /** The prefix the next pass measures, null when every sample is in. */
  next(): number | null {
    if (this.done >= this.samples) return null;
    if (this.done === 0) return Math.min(ESTIMATE, this.samples);
    const target = this.milestones.find((m) => m > this.done)!;
    // nothing on screen yet: the estimate was not worth posting, so the next milestone is close
    if (!this.posted) return target;
    const step = Math.max(ESTIMATE, Math.floor(this.rate * STEP_MS));
    return Math.min(target, this.done + step);
  }

  /** Records a pass over [0, upTo) whose sample-by-sample work took `ms`: its sizes are posted, or it is progress. */
  measured(upTo: number, ms: number): "post" | "progress" {
    this.rate = (upTo - this.done) / Math.max(ms, 0.01);
    const first = this.done === 0;
    this.done = upTo;
    let post = this.milestones.includes(upTo);
    if (!post && first) {
      const target = this.milestones.find((m) => m > upTo)!;
      post = (target - upTo) / this.rate > ESTIMATE_WHEN_MS;
    }
    if (post) this.posted = true;
    return post ? "post" : "progress";
  }
}

/**
 * Latest wins: requests that arrive while one is computed replace each other, and between the
 * phases (passes over the samples → byte map → attribution) the running one gives up when a newer one waits.
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
     * waited after posting sizes that more passes will refine: the page is drawing them then, and on a machine
     * with few cores the next pass would take the core it draws on
     */
    private readonly beforeRefining: () => Promise<void> = yieldToEvents,
    private readonly now: Now = () => performance.now(),
  ) {}

  submit(req: ComputeRequest): void {
    this.pending = req;
    if (!this.running) void this.drain();
  }

  /** Gives up request `seq` between two passes (or before it starts); a later request runs as usual. */
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

  private abandoned(req: ComputeRequest): boolean {
    return this.pending !== null || this.cancelled === req.seq;
  }

  /** Runs one phase; false when it failed (the error is posted and the request ends). */
  private phase(req: ComputeRequest, fn: () => WorkerResult | null): boolean {
    try {
      const out = fn();
      if (out) this.post(out);
      return true;
    } catch (e) {
      this.post({ type: "error", seq: req.seq, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
      return false;
    }
  }

  private async run(req: ComputeRequest): Promise<void> {
    const plan = new RunPlan(req.samples);
    let shown = false;
    for (let next = plan.next(); next !== null; next = plan.next()) {
      if (this.abandoned(req)) return;
      const upTo = next;
      const t0 = this.now();
      let posted = false;
      const ok = this.phase(req, () => {
        const out = this.engine.sizes(req, upTo);
        // what grows with the samples measured: drawing them and compiling the formats are done once per run
        const fixed = out.timings.generate + (out.timings.compile ?? 0);
        if (plan.measured(upTo, this.now() - t0 - fixed) === "post") {
          posted = true;
          return out;
        }
        // progress means something only once sizes for this request are on screen
        const { seq, layoutKey, samples, seed } = req;
        return shown ? { type: "progress", seq, layoutKey, samples, seed, measured: upTo } : null;
      });
      if (!ok) return;
      if (posted && !shown) {
        shown = true;
        // the byte map is one sample: it goes right after the first bars, before any refinement
        await this.yieldToEvents();
        if (this.abandoned(req) || !this.phase(req, () => this.engine.byteMap(req))) return;
      }
      // before anything is shown the next pass follows at once: the estimate was not posted because it is close
      if (shown && plan.next() !== null) await (posted ? this.beforeRefining() : this.yieldToEvents());
    }
    // the Readings per message figures, form by form of each format: a newer request (a keystroke) waits at most
    // one form's work; each format is posted when both its forms are in
    if (req.batch)
      for (const format of req.formats)
        for (const form of BATCH_FORMS) {
          await this.yieldToEvents();
          if (this.abandoned(req) || !this.phase(req, () => this.engine.batch(req, format, form))) return;
        }
    await this.yieldToEvents();
    if (this.abandoned(req)) return;
    this.phase(req, () => this.engine.attribution(req));
  }
}
