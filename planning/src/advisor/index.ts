// "#planning/advisor": the fit advisor (which changes to a layout make its records fit a limit, and
// what each costs in precision), for the advisor page and its worker.
export { adviseFit, adviseStaged, applyAll, type AdviseProgress, withBudget } from "./advise.ts";
export { type BatchProposal, type BatchProposalOptions, proposeBatch } from "./batch.ts";
export { type AdvisorObjective, type BatteryGain, rankByBattery } from "./battery.ts";
export { declaredStep } from "./declared.ts";
export { applyTransform } from "./transforms.ts";
export { leafFields } from "./tree.ts";
export type {
  AdvisorLimits,
  AdvisorResult,
  BudgetPlan,
  DeployedLayout,
  Suggestion,
  Transform,
  WireVerdict,
} from "./types.ts";
export { isLatLon, lossText, METRES_PER_DEGREE, short } from "./units.ts";
