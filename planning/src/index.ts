// Fleet planning's public surface ("#planning"): the platform catalog, what a fleet costs, how a record
// travels (transport overhead, fragmentation) and the report that puts them side by side. Planning reads
// the wire ("#codecs"); the wire never reads planning. Four narrower entries sit beside this one
// (docs/design/layers.md): "#planning/advisor" and "#planning/channel" (each runs in its own worker),
// "#planning/ingest" (the ingest transports the decoder and the load generator name) and
// "#planning/paper" (the paper's published load results and its figure of merit).

// platforms and their prices
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

// cost: one scenario, the paper's Table 7, and the fleet scenario the Decide page edits
export { PAPER_TABLE7_FLEET, PAPER_TABLE7_RULES, estimateCost, paperTable7 } from "./cost/cost.ts";
export type { CostResult, CostScenario } from "./cost/cost.ts";
// battery swaps over the years, from the device budget's battery life (issue #28)
export {
  DEFAULT_SWAP_PRICES,
  DEFAULT_SWAP_SOURCES,
  SwapCostError,
  batterySwapCost,
  batterySwapSaving,
} from "./cost/batterySwaps.ts";
export type { BatterySwapCost, BatterySwapInput, BatterySwapPrices } from "./cost/batterySwaps.ts";
export {
  ScenarioError,
  billingFor,
  costDocSchema,
  defaultCostDoc,
  defaultScenario,
  messagesPerDay,
  paperTable7Scenario,
  parseCostDoc,
  stackFor,
} from "./report/scenario.ts";
export type { CostDoc, Currency, FleetScenario } from "./report/scenario.ts";
export { budgetSettingsSchema, type BudgetSettings } from "./report/budgetSettings.ts";

// the fleet grid and the report built on it
export { convert, evaluateFleet } from "./report/fleet.ts";
export type { FleetCell, FleetResult, SeriesPoint } from "./report/fleet.ts";
export {
  batchCadenceText,
  buildReport,
  type MeasuredFormat,
  type ReportInput,
  type ReportModel,
} from "./report/model.ts";
export { reportCsv } from "./report/csv.ts";
export {
  budgetAt,
  budgetRows,
  lifeText,
  recordSplit,
  reportBudget,
  sizeBudget,
  type BudgetRow,
  type RecordSplit,
  type BudgetWhatIf,
  type ReportBudget,
} from "./report/budget.ts";
export { formatMoney } from "./report/money.ts";
export { executiveSummary, unpricedPlatforms, type ExecutiveSummary, type UnpricedPlatform } from "./report/summary.ts";

// batches: readings per message (fixed, or as many as fit the platform) and what that does to messages/day
export { BatchPlanError, messagesPerDayFor, platformLimit, readingsPerMessage } from "./batch/perMessage.ts";
export { DEFAULT_BATCH_MESSAGES, DEFAULT_BATCH_SEED, measureBatches } from "./batch/measure.ts";

// fragmentation of a record over a platform's message size
export { FRAGMENT_HEADER_BYTES, MAX_FRAGMENTS } from "./fragmentation/header.ts";
export { REASSEMBLY_RULE } from "./fragmentation/plan.ts";

// transport: the bytes a stack adds on air
export { OverheadError } from "./transport/overhead.ts";
export type { StackOverhead } from "./transport/overhead.ts";
export { allStackOverheads, STACK_IDS, stackOverhead, stackOverheadCsv, type StackId } from "./transport/stacks.ts";
export {
  SCHC_FRAG,
  schcFragments,
  schcHeaderBytes,
  studioSchcParams,
  type SchcFragmentation,
  type SchcFragMode,
} from "./transport/schc.ts";
export { COMPARED_STACKS, compareStacks, type ComparedCell, type ComparedStack } from "./transport/compare.ts";
export {
  defaultStack,
  isStackId,
  layoutStackId,
  onAirSummary,
  overheadFn,
  resolveStack,
  stackName,
  stacksFor,
  type OnAirSummary,
} from "./transport/platformStack.ts";

// the device budget: radio models with cited constants, airtime, energy, battery life (docs/budget.md)
export {
  BudgetError,
  DAYS_PER_YEAR,
  DEFAULT_TRACKER,
  DEFAULT_TRACKER_SOURCES,
  RADIO_LABELS,
  SECONDS_PER_DAY,
  airtimeOf,
  astrocastFragments,
  checkDeviceModel,
  deviceBudget,
  messageOnAir,
  radioChoiceFor,
  resolveRadio,
} from "./budget/index.ts";
export type {
  BudgetInput,
  BudgetIssue,
  BudgetLimit,
  DeviceBudget,
  DeviceField,
  DeviceModel,
  MessageOnAir,
  Phase,
  RadioChoice,
} from "./budget/index.ts";
export type { Cited } from "./platforms/cited.ts";
export {
  loraNeedsLowDataRateOptimize,
  loraPayloadSymbols,
  loraSymbolSeconds,
  loraTimeOnAir,
} from "./platforms/loraTimeOnAir.ts";
export type { LoraFrame } from "./platforms/loraTimeOnAir.ts";
export {
  LORA_REGIONS,
  lorawanDataRates,
  lorawanRadio,
  type LoraRegion,
  type LorawanRadio,
} from "./platforms/radioLorawan.ts";
export {
  ASTROCAST_RADIO,
  IRIDIUM_SBD_RADIO,
  type AstrocastRadio,
  type IridiumRadio,
} from "./platforms/radioSatellite.ts";
export { radioModelFor, type RadioModel } from "./platforms/radios.ts";
export {
  CELLULAR_NTN_RADIO,
  CELLULAR_TN_RADIO,
  KINEIS_RADIO,
  KINEIS_STANDARD_RADIO,
  ORBCOMM_RADIO,
  SIGFOX_RADIO,
  type FramedRadio,
} from "./platforms/radioFramed.ts";
