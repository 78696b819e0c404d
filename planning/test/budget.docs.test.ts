// docs/budget.md's constant tables are what the code uses: a value changed in one place and not the other fails here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "#codecs-test/helpers/python.ts";
import {
  ASTROCAST_RADIO as A,
  DEFAULT_TRACKER_SOURCES as D,
  IRIDIUM_SBD_RADIO as I,
  lorawanRadio,
  type Cited,
} from "../src/index.ts";

const doc = readFileSync(path.join(repoRoot, "docs/budget.md"), "utf8");

/** The text of a section, from its heading to the next one of the same or a higher level. */
function section(heading: string): string {
  const start = doc.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const rest = doc.slice(start + heading.length);
  const end = rest.search(/\n#{2,3} /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** "| label | value | source | basis | estimate |" → [value, estimate] of the row whose label is given. */
function row(text: string, label: string): { value: string; estimate: string } {
  const line = text.split("\n").find((l) => l.startsWith(`| ${label} |`));
  expect(line, label).toBeDefined();
  const cells = line!.split("|").map((c) => c.trim());
  return { value: cells[2]!, estimate: cells[cells.length - 2]! };
}

/** 2400 → "2 400" as the docs write numbers. */
const n = (x: number) => (x >= 1000 ? x.toLocaleString("en-US").replace(/,/g, " ") : String(x));
const v = (c: Cited) => `${n(c.value)} ${c.unit}`.trim();

function expectRow(text: string, label: string, value: string, constants: Cited[]) {
  const r = row(text, label);
  expect(r.value, label).toBe(value);
  expect(r.estimate, label).toBe(constants.some((c) => c.estimate) ? "yes" : "no");
}

describe("docs/budget.md's tables equal the code's constants", () => {
  it("LoRaWAN (SX1276)", () => {
    const s = section("### LoRaWAN (EU868, US915)");
    const eu = lorawanRadio("EU868", 0)!;
    const us = lorawanRadio("US915", 0)!;
    expectRow(s, "supply", v(eu.supplyVolts), [eu.supplyVolts]);
    expectRow(s, "TX current EU868", v(eu.txMa), [eu.txMa]);
    expectRow(s, "TX current US915", v(us.txMa), [us.txMa]);
    expectRow(s, "RX current", v(eu.rxMa), [eu.rxMa]);
    expectRow(s, "sleep current", v(eu.sleepUa), [eu.sleepUa]);
    expectRow(s, "RX window length", v(eu.rxWindowSymbols), [eu.rxWindowSymbols]);
  });

  it("Astrocast", () => {
    const s = section("### Astrocast (Astronode S)");
    expectRow(s, "max payload", v(A.maxPayloadBytes), [A.maxPayloadBytes]);
    expectRow(
      s,
      "fragments rule",
      `${v(A.fragmentBytes)} per fragment, ${v(A.fragmentOverheadBytes)} overhead, ${A.fragmentsPerBurst.value} per burst`,
      [A.fragmentBytes, A.fragmentOverheadBytes, A.fragmentsPerBurst],
    );
    expectRow(s, "supply", v(A.supplyVolts), [A.supplyVolts]);
    expectRow(s, "sleep current", v(A.sleepUa), [A.sleepUa]);
    expectRow(s, "TX per fragment", `${v(A.fragmentS)} at ${v(A.txMa)}`, [A.fragmentS, A.txMa]);
    expectRow(s, "per burst rx", `${v(A.burstRxS)} at ${v(A.rxMa)}`, [A.burstRxS, A.rxMa]);
    expectRow(s, "per burst wait", `${v(A.burstWaitS)} at ${v(A.waitMa)}`, [A.burstWaitS, A.waitMa]);
  });

  it("Iridium SBD", () => {
    const s = section("### Iridium SBD (9602 / 9603)");
    expectRow(s, "max payload (MO)", v(I.maxPayloadBytes), [I.maxPayloadBytes]);
    expectRow(s, "supply", v(I.supplyVolts), [I.supplyVolts]);
    expectRow(s, "session average current", v(I.sessionMa), [I.sessionMa]);
    expectRow(s, "idle current", v(I.idleMa), [I.idleMa]);
    expectRow(s, "off current", v(I.offUa), [I.offUa]);
    expectRow(s, "session fixed time", v(I.sessionFixedS), [I.sessionFixedS]);
    expectRow(s, "bit rate", v(I.bitRate), [I.bitRate]);
    expectRow(s, "wait before the session", v(I.waitS), [I.waitS]);
  });

  it("the default tracker", () => {
    const s = section("## The default tracker (DEFAULT_TRACKER)");
    expectRow(s, "battery", `${v(D.batteryMah)} at ${v(D.batteryVolts)}`, [D.batteryMah, D.batteryVolts]);
    expectRow(s, "usable fraction", String(D.usableFraction.value), [D.usableFraction]);
    expectRow(s, "self-discharge", `${D.selfDischargePerYear.value * 100} % a year`, [D.selfDischargePerYear]);
    expectRow(s, "sleep current (MCU, sensors off, regulator)", v(D.sleepMicroamps), [D.sleepMicroamps]);
    expectRow(s, "sensors per reading", v(D["readingEnergyMj.sensors"]), [D["readingEnergyMj.sensors"]]);
    expectRow(s, "GNSS per reading", v(D["readingEnergyMj.gnss"]), [D["readingEnergyMj.gnss"]]);
    expectRow(s, "MCU per reading", v(D["readingEnergyMj.mcu"]), [D["readingEnergyMj.mcu"]]);
  });
});
