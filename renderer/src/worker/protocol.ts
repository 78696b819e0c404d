// Messages between the designer and its sizes worker; every result carries the request's seq so stale ones are dropped.
import type { BatchForm, FormatId, FormatInfo, Layout, LogProblem } from "#codecs";
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
  /** the Readings per message view's figures: asked only while that tab is open and the layout has a batch */
  batch: BatchAsk | null;
}

/** What the Readings per message view asks of each worker for its formats (issue #27). */
export interface BatchAsk {
  /** the limits whose fit is counted, by platform id: the chosen platforms with a limit and the batch's own */
  limits: { id: string; bytes: number }[];
  /** the user's own log to size on instead of generated series (CSV with a header or JSONL); null: generated */
  log?: UserLog | null;
}

/** A log file the user chose in the Readings view: its text goes to the worker, which imports it (importLog). */
export interface UserLog {
  /** changes with every file chosen: the figures' cache key */
  id: number;
  name: string;
  text: string;
}

/** What the import of the user's log found: the readings sized, or the problems that stop it. */
export interface LogSummary {
  readings: number;
  problems: LogProblem[];
  problemsNotListed: number;
}

/** Bytes one per-reading or once field takes in the first message sized. */
export interface BatchFieldCost {
  field: string;
  /** sent once per message (0 for a per-reading field) */
  once: number;
  /** the first reading's value (absolute; the time's base) */
  first: number;
  /** each later reading's value on average: a difference, an offset, a keyframe, or a column element */
  next: number;
}

export interface BatchFormResult {
  form: BatchForm;
  /** readings per message sized: the layout's fixed count, or as many as fit its platform (0: not even one) */
  readings: number;
  /** bytes per message over the messages sized; null when none encoded */
  stats: SizeStats | null;
  /** readings that fit each asked limit, by platform id (0: not even one) */
  fits: Record<string, number>;
  /** per top-level field, in layout order, from the first message's spans */
  fields: BatchFieldCost[];
  /** counts, keys, tags, lengths and headers of that message */
  framing: number;
  /** why no message could be sized (readings that do not fit, a value the layout refuses …) */
  error: string | null;
  /** sized on the user's log (null: on generated series) */
  log: LogSummary | null;
}

export interface BatchFormatResult {
  format: FormatId;
  forms: BatchFormResult[];
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
  | {
      /** one format's batch figures (issue #27), posted format by format */
      type: "batch";
      seq: number;
      layoutKey: number;
      seed: number;
      /** the ask they answer (batchAskKey) */
      ask: string;
      items: BatchFormatResult[];
      ms: number;
    }
  | { type: "error"; seq: number; message: string };

/** Names an ask: answers for another one are dropped. */
export const batchAskKey = (ask: BatchAsk): string =>
  ask.limits.map((l) => `${l.id}:${l.bytes}`).join(",") + (ask.log ? `|log${ask.log.id}` : "");
