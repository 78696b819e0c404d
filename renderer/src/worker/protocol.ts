// Messages between the designer and its sizes worker; every result carries the request's seq so stale ones are dropped.
import type { FormatId, FormatInfo, Layout } from "#codecs";
import type { Attribution, ByteMap, SizeStats } from "#codecs/analysis";
import type { PostedLayout } from "./layoutPosts.ts";

export interface ComputeRequest {
  type: "compute";
  seq: number;
  /** changes whenever the layout does; the worker keeps compiled codecs and samples while it stays */
  layoutKey: number;
  layout: Layout;
  samples: number;
  seed: number;
  formats: readonly FormatId[];
  attribution: boolean;
  byteMap: { format: FormatId; sample: number } | null;
}

export interface FormatResult {
  info: FormatInfo;
  stats: SizeStats;
  /** sizes of the samples that encoded, in sample order */
  sizes: Uint32Array;
  /** the first `measured` samples are in; fewer than the sample count while a large run is refined */
  measured: number;
  errors: number;
  firstError: string | null;
  firstErrorSample: number | null;
}

export interface PhaseTimings {
  /** ms spent drawing the samples (0 when they were reused) */
  generate: number;
  /** ms spent encoding every sample in every format */
  measure: number;
  /** per-format encode ms, to show where the time goes */
  perFormat: Partial<Record<FormatId, number>>;
  /** of `measure`, ms spent compiling the formats for the layout (once per layout, whatever the samples) */
  compile?: number;
  /** field columns measured (the others came from the cache), over the formats of this answer */
  remeasured?: number;
}

/**
 * What the page posts: the layout as what changed since the last one (layoutPosts.ts), text written once for every
 * worker. Posting the object would structured-clone all of it for every worker on the main thread (2 ms a worker
 * for 500 fields).
 */
export type PostedRequest = Omit<ComputeRequest, "layout"> & { layout: PostedLayout };

/** Stops the refinement of request `seq` (a large run): the sizes measured so far stay as they are. */
export interface CancelRequest {
  type: "cancel";
  seq: number;
}

export type WorkerResult =
  | {
      type: "sizes";
      seq: number;
      layoutKey: number;
      samples: number;
      seed: number;
      results: FormatResult[];
      timings: PhaseTimings;
    }
  | {
      /** a large run's refinement has measured the first `measured` samples (sizes not posted until the end) */
      type: "progress";
      seq: number;
      layoutKey: number;
      samples: number;
      seed: number;
      measured: number;
    }
  | {
      type: "attribution";
      seq: number;
      layoutKey: number;
      samples: number;
      seed: number;
      items: Attribution[];
      ms: number;
    }
  | {
      type: "bytemap";
      seq: number;
      layoutKey: number;
      samples: number;
      seed: number;
      format: FormatId;
      sample: number;
      map: ByteMap | null;
      record: unknown;
      error: string | null;
      ms: number;
    }
  | { type: "error"; seq: number; message: string };
