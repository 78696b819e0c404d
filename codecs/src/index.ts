// The wire's public surface: what the planning and export layers, the CLI, host, services, devkit bridge
// and renderer share (import "#codecs"). Listed by name so that growing it is a decision. Two narrower
// entries sit beside it (docs/design/layers.md): "#codecs/analysis" (the size engine's parts, for the size
// workers and the analysis views) and "#codecs/plans" (each format's plan and value rules, for code that
// must write the same bytes elsewhere: the exporters, the advisor, the gateway bench). Anything else under
// codecs/src is internal: ESLint fails a deep import from outside codecs/.

// layouts: the schema, validation, limits and the values a record holds
export type {
  Batch,
  Field,
  FieldType,
  Layout,
  LayoutInput,
  SampleModel,
  ScalarType,
  StructStringMode,
  TextRep,
} from "./layout/schema.ts";
export {
  checkLayout,
  intLimits,
  LayoutChecker,
  parseLayout,
  parseLayoutShape,
  type LayoutCheck,
} from "./layout/validate.ts";
export { LIMITS } from "./layout/limits.ts";
export { keepProtobufNumbers, pinProtobufNumbers } from "./layout/protobufNumbers.ts";
export type { FieldValue, PlainRecord, PlainValue, ScalarValue, TypedRecord } from "./layout/values.ts";
export { DecodeError, EncodeError, LayoutError, RecordError, describeIssue, joinIssues } from "./errors.ts";
export type { IssueAt } from "./errors.ts";

// formats: ids, the registry of format modules (codec, evolution rules, media types, worker cost) and labels
export type { CompiledCodec, FormatInfo, Span } from "./formats/types.ts";
export {
  CODECS,
  FORMAT_IDS,
  FORMAT_LABELS,
  FORMAT_MODULES,
  codecFor,
  formatLabel,
  formatsWith,
  isFormatId,
  type FormatId,
} from "./formats/registry.ts";

// presets and sample records
export { PRESETS, presetById } from "./presets/index.ts";
export { paperPreset } from "./presets/paper.ts";
export { kineisTrackerPreset } from "./presets/kineisTracker.ts";
export { generateSamples } from "./samples/generate.ts";
export { generateBatches, generateSeries } from "./samples/series.ts";

// many readings per message (issue #27): the batch's wire forms, docs/design/batch-wire.md
export { batchCodecFor, FIT_MAX_READINGS, readingsThatFit, searchReadingsFit, type BatchCodec } from "./batch/codec.ts";
export { BATCH_FORMS, type BatchForm, type BatchOrigin, type BatchPart } from "./batch/plan.ts";
export type { BatchRecord } from "./batch/transform.ts";
export { Prng } from "./samples/prng.ts";
export { describeLogProblem, detectLogFormat, importLog, MAX_LISTED as LOG_PROBLEMS_LISTED } from "./logs/importLog.ts";
export type { ImportedLog, LogFormat, LogProblem } from "./logs/importLog.ts";
export { batchesFromLog } from "./logs/batches.ts";

// text forms of records and bytes
export { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes, utf8Length } from "./text/bytes.ts";
export { codePoints, hasVisibleCharacter } from "./text/visible.ts";
export { strictUtf8Decoder } from "./text/utf8.ts";
export { fromPlain, toPlain } from "./text/plain.ts";
export { parseJsonLenient } from "./text/jsonLenient.ts";
export type { Excess } from "./text/plain.ts";
export { decodeAsSent } from "./formats/asSent.ts";
export type { AsSentOptions, DecodedAsSent } from "./formats/asSent.ts";

// sizes and layout evolution
export { describeError, measureSizes } from "./analysis/sizes.ts";
export type { FormatSizes } from "./analysis/sizes.ts";
export { shareOver } from "./analysis/stats.ts";
export { diffLayouts, formatLabel as formatShortLabel } from "./evolution/diff.ts";
export type { Compat, FormatVerdict, LayoutDiff } from "./evolution/types.ts";
export { worse as worseCompat } from "./evolution/types.ts";
