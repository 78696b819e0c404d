// The advisor's vocabulary: layout transforms as plain data (so a worker can send them and the designer apply them).
import type { FormatId, Layout } from "#codecs";
import type { SizeStats } from "#codecs/analysis";

export type Transform =
  /** a value that never changes travels in a separate, rarer status message */
  | { kind: "move-to-status"; fieldId: string }
  /** a constant leading part moves to the status message; the rest stays, as digits (an integer) or a shorter string */
  | {
      kind: "split-prefix";
      fieldId: string;
      prefix: string;
      /** `range`: the digits seen, so the new field's samples draw what the old ones did */
      rest: { as: "int"; digits: number; range?: { min: number; max: number } } | { as: "string"; maxLength: number };
    }
  /** a string whose characters all fall in a smaller alphabet uses it (bit-packed spends fewer bits per character) */
  | { kind: "string-charset"; fieldId: string; charset: "digits" | "hex" | "upper-alnum" | "alnum" | "ascii" }
  /** a string with few distinct values becomes an enum of them; `weights` (how often each was seen) drive its samples */
  | { kind: "string-to-enum"; fieldId: string; values: string[]; weights?: number[] }
  /** a float or fixed-point value becomes fixed-point with this step (a float array: every element) */
  | { kind: "fixed-point"; fieldId: string; step: number }
  /** a timestamp becomes epoch seconds at this resolution inside [min, max] */
  | { kind: "timestamp"; fieldId: string; resolution: number; min: number; max: number }
  /** an integer or fixed-point value (an array: every element) keeps to [min, max], the values seen with a margin */
  | { kind: "narrow-range"; fieldId: string; min: number; max: number }
  /** an array carries at most this many elements (its first ones) */
  | { kind: "array-length"; fieldId: string; maxCount: number }
  /** a self-describing format (JSON, CBOR, MessagePack, PSON) writes this shorter key */
  | { kind: "short-key"; fieldId: string; key: string }
  /** the field is not sent at all: a candidate only, never part of a plan */
  | { kind: "remove-field"; fieldId: string };

export type TransformKind = Transform["kind"];

/** What a change costs in the field's own terms. */
export interface PrecisionLoss {
  /** field path of keys ("gps.lat") */
  field: string;
  /** the field's unit ("°C", "m", "s", "mg"); for latitude/longitude metres are given in `text` */
  unit: string;
  /** guaranteed worst |decoded − original| in `unit`: half the new step, 0 when nothing is rounded */
  bound: number;
  /** worst |decoded − original| observed over the advisor's samples */
  measured: number;
  /** one line for people: "±0.05 °C", "±5.6 m (0.00005°)", "±0.5 s" */
  text: string;
  /** `measured` the same way ("exact" when every sample came back unchanged, "mismatch" when one did not decode) */
  measuredText: string;
}

/** What the user will not give up: fields left alone, and the coarsest step each may be rounded to. */
export interface AdvisorLimits {
  /** field ids the advisor must not change at all */
  locked?: readonly string[];
  /** field id → coarsest step allowed, in the field's unit (seconds for timestamps) */
  maxStep?: Readonly<Record<string, number>>;
  /**
   * coarsest step allowed for a latitude or longitude, in metres (default 10 m): a tracker's position is never
   * offered at 0.05° (about 5.5 km) unless the user says so
   */
  positionMetres?: number;
}

/** What a change does to receivers already in the field, from the codecs' schema-evolution check. */
export interface WireVerdict {
  /** the worse of the two directions (old readers of new messages, new readers of old messages) */
  compat: "compatible" | "degraded" | "breaking";
  /** the findings that make it so, one line each ("temperature: sint32 → uint32 …") */
  reasons: string[];
}

/** The layout of the version marked deployed: what the receivers in the field were built for. */
export interface DeployedLayout {
  version: number;
  label: string | null;
  layout: Layout;
}

export interface Suggestion {
  /** stable key: kind, field and parameter */
  id: string;
  transform: Transform;
  fieldId: string;
  /** key path ("gps.lat") */
  field: string;
  title: string;
  detail: string;
  /** mean bytes saved per message in the target format (bit-packed: bits / 8, so small savings still count) */
  bytesSaved: number;
  /** information given up per message by the declared steps: log2(new step / declared step) per value; 0 when nothing is rounded */
  infoLostBits: number;
  /** bytesSaved / infoLostBits; null when nothing is lost (such changes rank first) */
  bytesPerBit: number | null;
  loss: PrecisionLoss | null;
  /** what stops working: values outside the observed set, times after the window … */
  caveat: string | null;
  /** size distribution of the target format with only this change */
  sizes: SizeStats;
  /** part of the plan that reaches the target */
  inPlan: boolean;
  /** what the change does to receivers built for the current layout, in the target format */
  wire: WireVerdict;
}

export interface PlanStep {
  suggestionId: string;
  /** size distribution after this step and every one before it */
  sizes: SizeStats;
}

export interface AdvisorPlan {
  /** the plan's changes in the order they were chosen */
  steps: PlanStep[];
  transforms: Transform[];
  layout: Layout;
  sizes: SizeStats;
  fits: boolean;
  /**
   * the target cannot be reached with the allowed changes: the plan then holds only the changes that lose no
   * precision (none is given up for a target it would miss anyway), and applying it is partial
   */
  partial: boolean;
  /** sizes with every allowed change at its most saving setting: the closest the changes get (only when partial) */
  closest: SizeStats | null;
  /** what precision was given up, per changed field (measured over every sample) */
  losses: PrecisionLoss[];
  /** samples that could not be encoded after the plan */
  failed: number;
  /** what the whole plan does to receivers built for the current layout, in the target format */
  wire: WireVerdict;
  /**
   * what it does to receivers built for the version marked deployed (which may already differ from the current
   * layout), when the project has one
   */
  deployedWire: (WireVerdict & { version: number; label: string | null }) | null;
  /**
   * only when the plan is partial: what reaching the target costs once fields (or an array's last elements) may
   * be left out as well; null when even that misses, or nothing can be left out
   */
  budget: BudgetPlan | null;
  /** the budget plan is still being worked out (the first of two answers; adviseFit never returns it so) */
  budgetPending: boolean;
}

/** The byte budget met at any cost: the changes, and what they give up. */
export interface BudgetPlan {
  transforms: Transform[];
  layout: Layout;
  sizes: SizeStats;
  fits: boolean;
  /** names of the fields left out or cut shorter, as the page says them */
  left: string[];
  /** names of the fields rounded coarser */
  rounded: string[];
  /** declared bits per message given up: rounding and data left out together */
  bitsLost: number;
  wire: WireVerdict;
}

export interface StatusMessage {
  layout: Layout;
  sizes: SizeStats;
}

export interface AdvisorResult {
  format: FormatId;
  targetBytes: number;
  sampleCount: number;
  seed: number;
  base: SizeStats;
  suggestions: Suggestion[];
  /**
   * fields (or an array's last elements) the target format would save most without: information lost outright,
   * so they are listed apart and never put in a plan
   */
  removals: Suggestion[];
  plan: AdvisorPlan;
  /** the rarer message the moved values travel in, when the plan moves any */
  status: StatusMessage | null;
  /**
   * the format lever: the same layout, before any change, in every other format (null sizes: it cannot be encoded
   * there), smallest largest-message first, so a format that fits as it is shows before any precision is given up
   */
  otherFormats: { format: FormatId; sizes: SizeStats | null }[];
}

export class AdvisorError extends Error {
  override readonly name = "AdvisorError";
}
