// Messages between the advisor page and its worker; every answer carries the request's seq so stale ones are dropped.
import type { FormatId, Layout } from "#codecs";
import type { AdviseProgress, AdvisorLimits, AdvisorResult, BudgetPlan, DeployedLayout } from "#planning/advisor";

export interface AdviseRequest {
  type: "advise";
  seq: number;
  layout: Layout;
  targetBytes: number;
  format: FormatId;
  samples: number;
  seed: number;
  limits: AdvisorLimits;
  /** the project's version marked deployed, the plan is checked against it too */
  deployed?: DeployedLayout;
}

export type AdviseAnswer =
  | ({ type: "progress"; seq: number } & AdviseProgress)
  /** the advice; when `result.plan.budgetPending`, a "budget" answer to the same seq follows */
  | { type: "result"; seq: number; result: AdvisorResult; ms: number }
  /** the second stage: the byte-budget plan, worked out after the advice was posted */
  | { type: "budget"; seq: number; budget: BudgetPlan | null; ms: number }
  | { type: "error"; seq: number; message: string };
