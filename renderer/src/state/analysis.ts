// Results from the sizes worker as the views read them; only results matching the current inputs are ever stored.
import { create } from "zustand";
import type { FormatId } from "#codecs";
import type { Attribution, ByteMap } from "#codecs/analysis";
import type { BatchFormatResult, FormatResult, PhaseTimings } from "../worker/protocol.ts";

export interface SizesView {
  layoutKey: number;
  samples: number;
  seed: number;
  /** in FORMAT_IDS order; a format whose worker has not answered yet is missing, or keeps its last bar when only the layout moved */
  results: FormatResult[];
  /** formats still being computed for these inputs (not in yet, or refined over more samples) */
  pending: FormatId[];
  /** of those, the ones whose bar is still the one of the previous layout (no answer for this one yet) */
  stale: FormatId[];
  /** samples in for every size-only format: less than `samples` while a large run is refined */
  measured: number;
  timings: PhaseTimings;
}

export interface AttributionView {
  layoutKey: number;
  samples: number;
  seed: number;
  items: Attribution[];
}

export interface ByteMapView {
  layoutKey: number;
  seed: number;
  format: FormatId;
  sample: number;
  map: ByteMap | null;
  record: unknown;
  error: string | null;
}

/** The Readings per message figures (issue #27) for one layout, seed and ask; formats join as their worker answers. */
export interface BatchView {
  layoutKey: number;
  seed: number;
  /** the ask they answer (batchAskKey) */
  ask: string;
  /** in FORMAT_IDS order, the formats in so far */
  items: BatchFormatResult[];
  /** formats not in yet */
  pending: FormatId[];
}

export interface AnalysisState {
  sizes: SizesView | null;
  attribution: AttributionView | null;
  byteMap: ByteMapView | null;
  batch: BatchView | null;
  /** a request is out whose sizes have not come back */
  computing: boolean;
  /** a large run being refined: samples measured so far by the slowest worker (null when none is) */
  refining: { layoutKey: number; measured: number; samples: number } | null;
  /** the person stopped the refinement of the sizes on screen: they stay an estimate until asked again */
  stopped: boolean;
  error: string | null;
}

export const useAnalysis = create<AnalysisState>()(() => ({
  sizes: null,
  attribution: null,
  byteMap: null,
  batch: null,
  computing: false,
  refining: null,
  stopped: false,
  error: null,
}));
