// Keeps the sizes workers fed: every change of layout or analysis settings posts one request per worker, each
// worker encoding its share of the formats in parallel; answers that no longer match what is on screen are dropped
// (latest wins), so a slow result can never overwrite a newer one.
import { FORMAT_IDS, type FormatId } from "../../../codecs/src/formats/types.ts";
import type { Attribution } from "../../../codecs/src/analysis/attribution.ts";
import { useAnalysis } from "../state/analysis.ts";
import { useDesigner } from "../state/designer.ts";
import { useSettings } from "../state/settings.ts";
import { perfReceived } from "../perf.ts";
import { partition, updateCosts, type Costs } from "./pool.ts";
import type { ComputeRequest, FormatResult, PhaseTimings, WorkerResult } from "./protocol.ts";

interface Sent {
  editAt: number;
  sentAt: number;
}

interface Gathering {
  sig: string;
  /** which worker encodes which formats for this sig; fixed once chosen so parts always fit together */
  shares: FormatId[][];
  sizes: Map<FormatId, FormatResult>;
  timings: PhaseTimings[];
  attribution: Map<FormatId, Attribution>;
}

export function poolSize(): number {
  const cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(4, cores));
}

export function startAnalysis(makeWorker: () => Worker, workers = poolSize()): () => void {
  const pool = Array.from({ length: workers }, makeWorker);
  let seq = 0;
  let lastSent = "";
  let costs: Costs = {};
  let gathering: Gathering | null = null;
  const sentForKey = new Map<number, Sent>();

  const sigOf = (layoutKey: number, samples: number, seed: number) => `${layoutKey}|${samples}|${seed}`;

  const send = () => {
    const d = useDesigner.getState();
    const s = useSettings.getState();
    if (!d.valid || d.projectId === null) return;
    const sample = Math.min(s.byteMapSample, s.samples - 1);
    const wantAttribution = s.tab === "attribution";
    const req = `${d.validKey}|${s.samples}|${s.seed}|${wantAttribution}|${s.byteMapFormat}|${sample}`;
    if (req === lastSent) return;
    lastSent = req;
    const sig = sigOf(d.validKey, s.samples, s.seed);
    if (gathering?.sig !== sig) gathering = { sig, shares: partition(FORMAT_IDS, pool.length, costs), sizes: new Map(), timings: [], attribution: new Map() };
    const shares = gathering.shares;
    // the byte map goes to the worker with the least to encode
    const lightest = shares.reduce((best, share, i) => (load(share, costs) < load(shares[best]!, costs) ? i : best), 0);
    if (!sentForKey.has(d.validKey)) sentForKey.set(d.validKey, { editAt: d.validAt, sentAt: performance.now() });
    const a = useAnalysis.getState();
    const sizesCurrent = a.sizes && a.sizes.layoutKey === d.validKey && a.sizes.samples === s.samples && a.sizes.seed === s.seed;
    if (!sizesCurrent) useAnalysis.setState({ computing: true });
    seq++;
    pool.forEach((w, i) => {
      const msg: ComputeRequest = {
        type: "compute",
        seq,
        layoutKey: d.validKey,
        layout: d.valid!,
        samples: s.samples,
        seed: s.seed,
        formats: shares[i]!,
        attribution: wantAttribution && shares[i]!.length > 0,
        byteMap: i === lightest ? { format: s.byteMapFormat, sample } : null,
      };
      w.postMessage(msg);
    });
  };

  const onResult = (r: WorkerResult) => {
    const d = useDesigner.getState();
    const s = useSettings.getState();
    if (r.type === "error") {
      useAnalysis.setState({ error: r.message, computing: false });
      return;
    }
    if (r.layoutKey !== d.validKey || r.samples !== s.samples || r.seed !== s.seed) return;
    const g = gathering;
    if (!g || g.sig !== sigOf(r.layoutKey, r.samples, r.seed)) return;
    switch (r.type) {
      case "sizes": {
        for (const part of r.results) g.sizes.set(part.info.id, part);
        g.timings.push(r.timings);
        costs = updateCosts(costs, r.timings.perFormat);
        if (g.sizes.size < FORMAT_IDS.length) return;
        const shown = useAnalysis.getState().sizes;
        if (shown && shown.layoutKey === r.layoutKey && shown.samples === r.samples && shown.seed === r.seed) {
          useAnalysis.setState({ computing: false });
          return;
        }
        const timings = mergeTimings(g.timings);
        const sent = sentForKey.get(r.layoutKey);
        if (sent) {
          perfReceived({ layoutKey: r.layoutKey, editAt: sent.editAt, sentAt: sent.sentAt, receivedAt: performance.now(), generateMs: timings.generate, measureMs: timings.measure, perFormatMs: timings.perFormat });
          // only the first answer for an edit measures that edit
          sentForKey.delete(r.layoutKey);
        }
        for (const k of sentForKey.keys()) if (k < r.layoutKey) sentForKey.delete(k);
        const results = FORMAT_IDS.map((f) => g.sizes.get(f)!);
        useAnalysis.setState({ sizes: { layoutKey: r.layoutKey, samples: r.samples, seed: r.seed, results, timings }, computing: false, error: null });
        break;
      }
      case "attribution": {
        for (const item of r.items) g.attribution.set(item.format, item);
        if (g.attribution.size < FORMAT_IDS.length) return;
        const shown = useAnalysis.getState().attribution;
        if (shown && shown.layoutKey === r.layoutKey && shown.samples === r.samples && shown.seed === r.seed) return;
        useAnalysis.setState({ attribution: { layoutKey: r.layoutKey, samples: r.samples, seed: r.seed, items: FORMAT_IDS.map((f) => g.attribution.get(f)!) } });
        break;
      }
      case "bytemap": {
        if (r.format !== s.byteMapFormat) return;
        const shown = useAnalysis.getState().byteMap;
        if (shown && shown.layoutKey === r.layoutKey && shown.seed === r.seed && shown.format === r.format && shown.sample === r.sample) return;
        useAnalysis.setState({ byteMap: { layoutKey: r.layoutKey, seed: r.seed, format: r.format, sample: r.sample, map: r.map, record: r.record, error: r.error } });
        break;
      }
    }
  };

  for (const w of pool) {
    w.onmessage = (ev: MessageEvent<WorkerResult>) => onResult(ev.data);
    w.onerror = (ev) => useAnalysis.setState({ error: `sizes worker failed: ${ev.message || "unknown error"}`, computing: false });
  }

  const unsubs = [useDesigner.subscribe(send), useSettings.subscribe(send)];
  send();
  return () => {
    for (const u of unsubs) u();
    for (const w of pool) w.terminate();
  };
}

function load(share: readonly FormatId[], costs: Costs): number {
  return share.reduce((sum, f) => sum + (costs[f] ?? 1), 0);
}

/** Workers run side by side: the wall time of a phase is the slowest worker's. */
function mergeTimings(parts: readonly PhaseTimings[]): PhaseTimings {
  const perFormat: PhaseTimings["perFormat"] = {};
  for (const p of parts) Object.assign(perFormat, p.perFormat);
  return { generate: Math.max(0, ...parts.map((p) => p.generate)), measure: Math.max(0, ...parts.map((p) => p.measure)), perFormat };
}
