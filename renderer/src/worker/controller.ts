// Keeps the sizes workers fed: every change of layout or analysis settings posts one request per worker. The
// size-only formats are split over the sizes workers (a fixed split, so each worker's column cache stays warm);
// Struct+Zlib, which needs real bytes, has a worker of its own, and its bar joins when it is ready. Answers that no
// longer match what is on screen are dropped (latest wins), so a slow result can never overwrite a newer one.
import { CODECS, FORMAT_IDS, type FormatId, type Layout } from "#codecs";
import type { Attribution } from "#codecs/analysis";
import { PLATFORMS } from "#planning";
import { perfReceived } from "../perf.ts";
import { LayoutPoster } from "./layoutPosts.ts";
import { partition } from "./pool.ts";
import {
  type BatchAsk,
  batchAskKey,
  type BatchFormatResult,
  type CancelRequest,
  type FormatResult,
  type UserLog,
  type PhaseTimings,
  type PostedRequest,
  type WorkerResult,
} from "./protocol.ts";
import { useAnalysis } from "../state/analysis.ts";
import { useDesigner } from "../state/layoutStore.ts";
import { useReadingsLog } from "../state/readingsLog.ts";
import { useSettings } from "../state/settings.ts";

interface Sent {
  editAt: number;
  sentAt: number;
}

interface Gathering {
  sig: string;
  /** the request's seq (what a cancel names) */
  seq: number;
  /** samples each worker has refined so far, by worker index */
  progress: Map<number, number>;
  sizes: Map<FormatId, FormatResult>;
  timings: Map<number, PhaseTimings>;
  attribution: Map<FormatId, Attribution>;
}

/** Formats whose size needs the compressed bytes: they get the deflate worker. */
const COMPRESSED = FORMAT_IDS.filter((f) => CODECS[f].info.compressed);
const SIZE_ONLY = FORMAT_IDS.filter((f) => !CODECS[f].info.compressed);

/**
 * What the Readings per message view asks (issue #27): readings that fit each chosen platform with a limit and the
 * batch's own "as many as fit" platform, strictest first.
 */
export function batchAskOf(
  layout: Layout,
  platformIds: readonly string[],
  log: UserLog | null = null,
): BatchAsk | null {
  if (!layout.batch) return null;
  const ids = new Set(platformIds);
  if (layout.batch.readings.kind === "fit") ids.add(layout.batch.readings.platform);
  const limits = PLATFORMS.filter((p) => ids.has(p.id) && p.uplinkBytes !== undefined)
    .map((p) => ({ id: p.id, bytes: p.uplinkBytes! }))
    .sort((a, b) => a.bytes - b.bytes);
  return { limits, log };
}

/** Sizes workers besides the deflate worker: one core is left to the page and one to deflate. */
export function poolSize(): number {
  const cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(3, cores - 1));
}

/** The running controller's hands for the Stop / Refine buttons (one controller per page). */
let active: { stop(): void; refine(): void } | null = null;

/** Stops refining the large run on screen: its first-pass figures stay, marked as an estimate. */
export function stopRefining(): void {
  active?.stop();
}

/** Asks again for the sizes the person stopped refining. */
export function refineAgain(): void {
  active?.refine();
}

export function startAnalysis(makeWorker: () => Worker, workers = poolSize()): () => void {
  const shares = [...partition(SIZE_ONLY, workers, {}).filter((s) => s.length > 0), COMPRESSED];
  const pool = shares.map(makeWorker);
  let seq = 0;
  let lastSent = "";
  let gathering: Gathering | null = null;
  // when each request's inputs changed, to time the first answer for it (keys are request sigs, oldest first)
  const sentFor = new Map<string, Sent>();
  let lastLayoutKey = -1;
  const poster = new LayoutPoster();
  // the batch figures come format by format, for one layout, seed and ask
  let batchIn: { sig: string; items: Map<FormatId, BatchFormatResult> } | null = null;

  const sigOf = (layoutKey: number, samples: number, seed: number) => `${layoutKey}|${samples}|${seed}`;

  const send = () => {
    const d = useDesigner.getState();
    const s = useSettings.getState();
    if (!d.valid || d.projectId === null) return;
    const sample = Math.min(s.byteMapSample, s.samples - 1);
    const wantAttribution = s.tab === "attribution";
    const batch = s.tab === "readings" ? batchAskOf(d.valid, s.platforms, useReadingsLog.getState().log) : null;
    const askKey = batch ? batchAskKey(batch) : "-";
    const req = `${d.validKey}|${s.samples}|${s.seed}|${wantAttribution}|${s.byteMapFormat}|${sample}|${askKey}`;
    if (req === lastSent) return;
    lastSent = req;
    const sig = sigOf(d.validKey, s.samples, s.seed);
    seq++;
    if (gathering?.sig !== sig)
      gathering = { sig, seq, progress: new Map(), sizes: new Map(), timings: new Map(), attribution: new Map() };
    gathering.seq = seq;
    if (!sentFor.has(sig)) {
      const now = performance.now();
      // a layout edit started when the layout was parsed; a seed or sample-count change just now
      sentFor.set(sig, { editAt: d.validKey !== lastLayoutKey ? d.validAt : now, sentAt: now });
    }
    lastLayoutKey = d.validKey;
    const a = useAnalysis.getState();
    const sizesCurrent =
      a.sizes &&
      a.sizes.layoutKey === d.validKey &&
      a.sizes.samples === s.samples &&
      a.sizes.seed === s.seed &&
      a.sizes.pending.length === 0;
    useAnalysis.setState(sizesCurrent ? { stopped: false } : { computing: true, stopped: false });
    const layout = poster.post(d.validKey, d.valid);
    pool.forEach((w, i) => {
      const msg: PostedRequest = {
        type: "compute",
        seq,
        layoutKey: d.validKey,
        layout,
        samples: s.samples,
        seed: s.seed,
        formats: shares[i]!,
        attribution: wantAttribution,
        // one sample in one format: the first sizes worker does it between its first pass and refinement
        byteMap: i === 0 ? { format: s.byteMapFormat, sample } : null,
        batch,
      };
      w.postMessage(msg);
    });
  };

  /** Puts what is in for the current inputs on screen once every size-only format has a first pass. */
  const publish = (g: Gathering, layoutKey: number, samples: number, seed: number) => {
    if (SIZE_ONLY.some((f) => !g.sizes.has(f))) return;
    const shown = useAnalysis.getState().sizes;
    const sameRun = shown && shown.samples === samples && shown.seed === seed;
    const results: FormatResult[] = [];
    const pending: FormatId[] = [];
    const stale: FormatId[] = [];
    for (const f of FORMAT_IDS) {
      const r = g.sizes.get(f) ?? (sameRun ? shown.results.find((x) => x.info.id === f) : undefined);
      // until its worker answers, a compressed format keeps its last bar (same samples and seed), marked pending
      if (r) results.push(r);
      if (r && !g.sizes.has(f)) stale.push(f);
      if (!g.sizes.has(f) || g.sizes.get(f)!.measured < samples) pending.push(f);
    }
    const measured = Math.min(...SIZE_ONLY.map((f) => g.sizes.get(f)!.measured));
    const timings = mergeTimings([...g.timings.values()]);
    const sent = sentFor.get(g.sig);
    if (sent) {
      perfReceived({
        layoutKey,
        editAt: sent.editAt,
        sentAt: sent.sentAt,
        receivedAt: performance.now(),
        generateMs: timings.generate,
        measureMs: timings.measure,
        perFormatMs: timings.perFormat,
      });
      // only the first answer for an edit measures that edit; requests older than it will never be shown
      for (const k of [...sentFor.keys()]) {
        sentFor.delete(k);
        if (k === g.sig) break;
      }
    }
    useAnalysis.setState({
      sizes: { layoutKey, samples, seed, results, pending, stale, measured, timings },
      computing: pending.length > 0,
      refining: measured < samples ? { layoutKey, measured, samples } : null,
      error: null,
    });
  };

  const onResult = (r: WorkerResult, worker: number) => {
    const d = useDesigner.getState();
    const s = useSettings.getState();
    if (r.type === "error") {
      useAnalysis.setState({ error: r.message, computing: false });
      return;
    }
    if (r.type === "batch") return onBatch(r);
    if (r.layoutKey !== d.validKey || r.samples !== s.samples || r.seed !== s.seed) return;
    const g = gathering;
    if (!g || g.sig !== sigOf(r.layoutKey, r.samples, r.seed)) return;
    switch (r.type) {
      case "progress": {
        g.progress.set(worker, r.measured);
        const shown = useAnalysis.getState().sizes;
        if (!shown || shown.layoutKey !== r.layoutKey || useAnalysis.getState().stopped) return;
        // the slowest worker says how far the whole run is
        const measured = Math.min(...pool.map((_, i) => g.progress.get(i) ?? shown.measured));
        useAnalysis.setState({ refining: { layoutKey: r.layoutKey, measured, samples: r.samples } });
        return;
      }
      case "sizes": {
        let changed = false;
        for (const part of r.results) {
          const had = g.sizes.get(part.info.id);
          if (had && had.measured >= part.measured) continue;
          g.sizes.set(part.info.id, part);
          changed = true;
        }
        if (!changed) {
          const shown = useAnalysis.getState().sizes;
          if (shown && shown.layoutKey === r.layoutKey && shown.pending.length === 0)
            useAnalysis.setState({ computing: false });
          return;
        }
        g.timings.set(worker, r.timings);
        publish(g, r.layoutKey, r.samples, r.seed);
        break;
      }
      case "attribution": {
        for (const item of r.items) g.attribution.set(item.format, item);
        if (g.attribution.size < FORMAT_IDS.length) return;
        const shown = useAnalysis.getState().attribution;
        if (shown && shown.layoutKey === r.layoutKey && shown.samples === r.samples && shown.seed === r.seed) return;
        useAnalysis.setState({
          attribution: {
            layoutKey: r.layoutKey,
            samples: r.samples,
            seed: r.seed,
            items: FORMAT_IDS.map((f) => g.attribution.get(f)!),
          },
        });
        break;
      }
      case "bytemap": {
        if (r.format !== s.byteMapFormat) return;
        const shown = useAnalysis.getState().byteMap;
        if (
          shown &&
          shown.layoutKey === r.layoutKey &&
          shown.seed === r.seed &&
          shown.format === r.format &&
          shown.sample === r.sample
        )
          return;
        useAnalysis.setState({
          byteMap: {
            layoutKey: r.layoutKey,
            seed: r.seed,
            format: r.format,
            sample: r.sample,
            map: r.map,
            record: r.record,
            error: r.error,
          },
        });
        break;
      }
    }
  };

  /** Puts one format's batch figures on screen beside the others for the same layout, seed and ask. */
  const onBatch = (r: Extract<WorkerResult, { type: "batch" }>) => {
    const d = useDesigner.getState();
    const s = useSettings.getState();
    const ask = d.valid ? batchAskOf(d.valid, s.platforms, useReadingsLog.getState().log) : null;
    if (r.layoutKey !== d.validKey || r.seed !== s.seed || !ask || r.ask !== batchAskKey(ask)) return;
    const sig = `${r.layoutKey}|${r.seed}|${r.ask}`;
    if (batchIn?.sig !== sig) batchIn = { sig, items: new Map() };
    for (const item of r.items) batchIn.items.set(item.format, item);
    // a format not in yet keeps its figures for the previous layout (listed as pending) rather than vanishing
    const shown = useAnalysis.getState().batch;
    const items = FORMAT_IDS.flatMap((f) => batchIn!.items.get(f) ?? shown?.items.find((x) => x.format === f) ?? []);
    const pending = FORMAT_IDS.filter((f) => !batchIn!.items.has(f));
    useAnalysis.setState({ batch: { layoutKey: r.layoutKey, seed: r.seed, ask: r.ask, items, pending } });
  };

  pool.forEach((w, i) => {
    w.onmessage = (ev: MessageEvent<WorkerResult>) => onResult(ev.data, i);
    w.onerror = (ev) =>
      useAnalysis.setState({ error: `sizes worker failed: ${ev.message || "unknown error"}`, computing: false });
  });

  const unsubs = [useDesigner.subscribe(send), useSettings.subscribe(send), useReadingsLog.subscribe(send)];
  active = {
    stop() {
      const g = gathering;
      const shown = useAnalysis.getState().sizes;
      if (!g || !shown || shown.measured >= shown.samples) return;
      for (const w of pool) w.postMessage({ type: "cancel", seq: g.seq } satisfies CancelRequest);
      // nothing is computed for these figures any more: they stay, as the estimate they are
      useAnalysis.setState({ sizes: { ...shown, pending: [] }, computing: false, refining: null, stopped: true });
    },
    refine() {
      lastSent = "";
      gathering = null;
      send();
    },
  };
  send();
  return () => {
    active = null;
    for (const u of unsubs) u();
    for (const w of pool) w.terminate();
  };
}

/** Workers run side by side: the wall time of a phase is the slowest worker's. */
function mergeTimings(parts: readonly PhaseTimings[]): PhaseTimings {
  const perFormat: PhaseTimings["perFormat"] = {};
  for (const p of parts) Object.assign(perFormat, p.perFormat);
  return {
    generate: Math.max(0, ...parts.map((p) => p.generate)),
    measure: Math.max(0, ...parts.map((p) => p.measure)),
    compile: Math.max(0, ...parts.map((p) => p.compile ?? 0)),
    perFormat,
    remeasured: parts.reduce((n, p) => n + (p.remeasured ?? 0), 0),
  };
}
