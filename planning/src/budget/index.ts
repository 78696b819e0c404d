// The device budget (issue #28): radio airtime and energy per message, the device around it, battery life.
export { RADIO_LABELS, airtimeOf, astrocastFragments, messageOnAir, radioChoiceFor, resolveRadio } from "./airtime.ts";
export type { MessageOnAir, Phase, RadioChoice } from "./airtime.ts";
export { DAYS_PER_YEAR, SECONDS_PER_DAY, deviceBudget } from "./budget.ts";
export type { BudgetInput, BudgetLimit, DeviceBudget } from "./budget.ts";
export { DEFAULT_TRACKER, DEFAULT_TRACKER_SOURCES, checkDeviceModel } from "./device.ts";
export type { DeviceField, DeviceModel } from "./device.ts";
export { BudgetError } from "./errors.ts";
export type { BudgetIssue } from "./errors.ts";
