// The codec core's public surface: what the CLI, host, services, devkit bridge and renderer share (import
// "#codecs"). Listed by name so that growing it is a decision. Code used by one outside folder only (the
// renderer's analysis views, the advisor) stays reachable as "#codecs/<module>.ts", and so do the
// exporters ("#codecs/exporters/registry.ts"): Node loads every module this file names, and the exporter
// registry alone would add 36 modules and firmware/templates/ to every service (the decoder's image does
// not ship firmware/).

// layouts: the schema, validation and the values a record holds
export type {
  Field,
  FieldType,
  Layout,
  LayoutInput,
  SampleModel,
  ScalarType,
  StructStringMode,
  TextRep,
} from "./layout/schema.ts";
export { checkLayout, intLimits, LayoutChecker, parseLayout, type LayoutCheck } from "./layout/validate.ts";
export type { FieldValue, PlainRecord, PlainValue, TypedRecord } from "./layout/values.ts";
export { DecodeError, EncodeError, LayoutError, RecordError, describeIssue, joinIssues } from "./errors.ts";
export type { IssueAt } from "./errors.ts";

// formats: ids, the registry of compiled codecs and their labels
export { FORMAT_IDS } from "./formats/types.ts";
export type { CompiledCodec, FormatId, FormatInfo, Span } from "./formats/types.ts";
export { CODECS, FORMAT_LABELS, codecFor, formatLabel, formatsWith, isFormatId } from "./formats/registry.ts";

// presets and sample records
export { PRESETS, presetById } from "./presets/index.ts";
export { paperPreset } from "./presets/paper.ts";
export { generateSamples } from "./samples/generate.ts";
export { Prng } from "./samples/prng.ts";

// text forms of records and bytes
export { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes } from "./text/bytes.ts";
export { hasVisibleCharacter } from "./text/visible.ts";
export { fromPlain, toPlain } from "./text/plain.ts";
export type { Excess } from "./text/plain.ts";
export { decodeAsSent } from "./formats/asSent.ts";
export type { AsSentOptions, DecodedAsSent } from "./formats/asSent.ts";

// sizes, layout evolution, exports
export { describeError, measureSizes } from "./analysis/sizes.ts";
export type { FormatSizes } from "./analysis/sizes.ts";
export { shareOver } from "./analysis/stats.ts";
export { diffLayouts } from "./evolution/diff.ts";
export type { Compat, FormatVerdict, LayoutDiff } from "./evolution/types.ts";
export { generateProto } from "./exporters/proto.ts";
export { safeArchivePath, zipFiles } from "./exporters/zip.ts";

// platforms, cost and the paper's figures of merit
export {
  PLATFORMS,
  PlatformError,
  billingSchema,
  describeDefaultPrice,
  describePrice,
  parsePlatform,
  platformById,
} from "./platforms/catalog.ts";
export type { Billing, Money, Platform, VolumeUnit } from "./platforms/catalog.ts";
export { PAPER_TABLE7_FLEET, PAPER_TABLE7_RULES, estimateCost, paperTable7 } from "./cost/cost.ts";
export type { CostResult, CostScenario } from "./cost/cost.ts";
export {
  ScenarioError,
  billingFor,
  costDocSchema,
  defaultCostDoc,
  defaultScenario,
  messagesPerDay,
  paperTable7Scenario,
  parseCostDoc,
} from "./report/scenario.ts";
export type { CostDoc, Currency, FleetScenario } from "./report/scenario.ts";
export { convert, evaluateFleet } from "./report/fleet.ts";
export type { FleetCell, SeriesPoint } from "./report/fleet.ts";
export { PAPER_TABLE6, figureOfMerit, fomRange } from "./fom.ts";

// the channel: MAC throughput, fleets, transport stacks
export { ChannelConfigError, macThroughput } from "./channel/mac.ts";
export type { ChannelConfig } from "./channel/scenario.ts";
export { DEFAULT_FLEET_CHANNEL, loadFactorsFor, simulateFleet, stackLabel } from "./channel/fleet.ts";
export type { FleetInput, FleetResult, FleetStack } from "./channel/fleet.ts";
export { SEED003_STACKS, seed003Row } from "./channel/reproduce.ts";
export type { Seed003Row } from "./channel/reproduce.ts";
export { OverheadError } from "./transport/overhead.ts";
export type { StackOverhead } from "./transport/overhead.ts";
export { allStackOverheads, stackOverheadCsv } from "./transport/stacks.ts";
