// Messages between the advisor page and its worker; every answer carries the request's seq so stale ones are dropped.
import type { FormatId, Layout } from "#codecs";
import type { AdviseProgress, AdvisorLimits, AdvisorResult, DeployedLayout } from "#planning/advisor";

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
  | { type: "result"; seq: number; result: AdvisorResult; ms: number }
  | { type: "error"; seq: number; message: string };
