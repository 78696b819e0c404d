// Device management resources (TS-0001 9.6.18/9.6.15): a <node> stands for a device, its
// <mgmtObj> children for facts about it a telemetry back end keeps next to the data — the battery
// and the memory. A mgmtObj's JSON root names its specialization (m2m:bat, m2m:mem), and `mgd`
// (TS-0004's mgmtDefinition number) must match it.
import { count, intIn, nonEmptyStr, str, strList, time, type Check } from "./checks.ts";

export interface MgmtSpec {
  root: string;
  mgd: number;
  /** the specialization's own attributes, checked on create and update */
  attributes: Record<string, Check>;
  mandatory: readonly string[];
}

/** battery level in percent; batteryStatus 1 normal … 7 unknown (TS-0004's m2m:batteryStatus) */
const BATTERY: MgmtSpec = {
  root: "m2m:bat",
  mgd: 1006,
  attributes: { btl: intIn(0, 100), bts: intIn(1, 7) },
  mandatory: ["btl", "bts"],
};
/** memory available and total, in bytes */
const MEMORY: MgmtSpec = {
  root: "m2m:mem",
  mgd: 1003,
  attributes: { mma: count, mmt: count },
  mandatory: ["mma", "mmt"],
};

export const MGMT_SPECS: readonly MgmtSpec[] = [BATTERY, MEMORY];

export const mgmtSpecByRoot = (root: string): MgmtSpec | undefined => MGMT_SPECS.find((s) => s.root === root);
export const mgmtSpecByMgd = (mgd: unknown): MgmtSpec | undefined => MGMT_SPECS.find((s) => s.mgd === mgd);

/** Attributes every mgmtObj has besides its specialization's: description and the common ones. */
export const MGMT_COMMON: Record<string, Check> = { lbl: strList, et: time, dc: str };

/** <node>: its nodeID (the device's id, mandatory) and the link to the CSE it hosts, if any. */
export const NODE_ATTRIBUTES: Record<string, Check> = { lbl: strList, et: time, ni: nonEmptyStr, hcl: str };
