// What the advisor's suggestions are ranked by: bytes (its own order) or battery life on the target platform, with
// the Budget view's device and cadence.
import { create } from "zustand";
import type { AdvisorObjective } from "#planning/advisor";

export const useObjective = create<{ objective: AdvisorObjective }>()(() => ({ objective: "bytes" }));

export function setObjective(objective: AdvisorObjective): void {
  useObjective.setState({ objective });
}
