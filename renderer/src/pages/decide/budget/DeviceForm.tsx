// The what-if inputs of the Budget view: reading interval (slider), the battery swaps' horizon and prices (cited
// defaults), the LoRaWAN region, and the device model, each field with its default and source and, when planning's check refuses it, why.
import { DEFAULT_SWAP_SOURCES, DEFAULT_TRACKER, DEFAULT_TRACKER_SOURCES, type DeviceModel } from "#planning";
import {
  INTERVAL_STOPS,
  intervalText,
  LORAWAN_DATA_RATES,
  nearestStop,
  type Region,
  type WhatIf,
} from "./budgetModel.ts";
import {
  editDevice,
  editSwapPrice,
  resetDevice,
  setIntervalMinutes,
  setRegion,
  setSwapYears,
  useBudget,
} from "./budgetStore.ts";
import { NumberInput, Row } from "../inputs.tsx";

interface FieldSpec {
  /** the path checkDeviceModel names it by */
  path: string;
  label: string;
  unit: string;
  /** shown value ← model value (a fraction shown in %) */
  scale: number;
  get(d: DeviceModel): number;
  set(d: DeviceModel, v: number): DeviceModel;
}

const FIELDS: FieldSpec[] = [
  {
    path: "batteryMah",
    label: "Battery capacity",
    unit: "mAh",
    scale: 1,
    get: (d) => d.batteryMah,
    set: (d, v) => ({ ...d, batteryMah: v }),
  },
  {
    path: "batteryVolts",
    label: "Battery voltage",
    unit: "V",
    scale: 1,
    get: (d) => d.batteryVolts,
    set: (d, v) => ({ ...d, batteryVolts: v }),
  },
  {
    path: "usableFraction",
    label: "Usable capacity",
    unit: "%",
    scale: 100,
    get: (d) => d.usableFraction,
    set: (d, v) => ({ ...d, usableFraction: v }),
  },
  {
    path: "selfDischargePerYear",
    label: "Self-discharge",
    unit: "% / year",
    scale: 100,
    get: (d) => d.selfDischargePerYear,
    set: (d, v) => ({ ...d, selfDischargePerYear: v }),
  },
  {
    path: "sleepMicroamps",
    label: "Sleep current",
    unit: "µA",
    scale: 1,
    get: (d) => d.sleepMicroamps,
    set: (d, v) => ({ ...d, sleepMicroamps: v }),
  },
  ...(["sensors", "gnss", "mcu"] as const).map((k): FieldSpec => ({
    path: `readingEnergyMj.${k}`,
    label: k === "sensors" ? "Sensors per reading" : k === "gnss" ? "GNSS fix per reading" : "MCU per reading",
    unit: "mJ",
    scale: 1,
    get: (d) => d.readingEnergyMj[k],
    set: (d, v) => ({ ...d, readingEnergyMj: { ...d.readingEnergyMj, [k]: v } }),
  })),
];

// the shown value is rounded so 0.85 × 100 reads 85, not 85.00000000000001
const shown = (f: FieldSpec, d: DeviceModel) => Number((f.get(d) * f.scale).toPrecision(12));

export function WhatIfForm({ whatIf, batched }: { whatIf: WhatIf; batched: boolean }) {
  const region = useBudget((s) => s.region);
  const swapYears = useBudget((s) => s.swapYears);
  const swapDraft = useBudget((s) => s.swapDraft);
  const swapErrors = useBudget((s) => s.swapErrors);
  const interval = whatIf.intervalMinutes;
  return (
    <section className="decide-section" data-testid="budget-whatif">
      <h3>What if</h3>
      <Row label="Reading" hint={<span data-testid="budget-interval-text">{intervalText(interval)}</span>}>
        <input
          type="range"
          className="budget-slider"
          min={0}
          max={INTERVAL_STOPS.length - 1}
          step={1}
          value={nearestStop(interval)}
          aria-label="Reading interval"
          data-testid="budget-interval"
          onChange={(e) => setIntervalMinutes(INTERVAL_STOPS[Number(e.target.value)]!)}
        />
      </Row>
      <Row label="Readings per message">
        <span data-testid="budget-rpm-text">
          {batched
            ? "each format's own count, from the layout's batch (designer › Readings)"
            : "one: give the layout a batch in the designer (Readings tab) to send several"}
        </span>
      </Row>
      <Row
        label="Battery swaps over"
        hint={<span className="faint">the fleet's horizon, for the report's saving</span>}
      >
        <div className="decide-inline">
          <NumberInput
            label="Years battery swaps are counted over"
            value={swapYears}
            min={1}
            max={50}
            integer
            width={60}
            testId="budget-swap-years"
            onCommit={(v) => v !== undefined && setSwapYears(v)}
          />
          <span className="muted">years</span>
        </div>
      </Row>
      {(["battery", "labour"] as const).map((part) => {
        const c = DEFAULT_SWAP_SOURCES[part];
        const error = swapErrors[part];
        const label = part === "battery" ? "Battery per swap" : "Labour per swap";
        return (
          <Row
            key={part}
            label={label}
            hint={
              error ? (
                <span className="attention-text" role="alert" data-testid={`budget-swap-error-${part}`}>
                  {error}
                </span>
              ) : (
                <span className="faint" title={`${c.basis} (${c.source}, ${c.date})`}>
                  default {c.value} {c.unit} · {c.estimate ? "our estimate" : c.source}
                </span>
              )
            }
          >
            <div className="decide-inline">
              <NumberInput
                label={label}
                value={swapDraft[part].amount}
                width={90}
                testId={`budget-swap-${part}`}
                onCommit={(v) => editSwapPrice(part, v)}
              />
              <span className="muted">{swapDraft[part].currency}</span>
            </div>
          </Row>
        );
      })}
      <Row label="LoRaWAN region">
        <select
          className="select"
          value={region}
          aria-label="LoRaWAN region"
          data-testid="budget-region"
          onChange={(e) => setRegion(e.target.value as Region)}
        >
          {(Object.keys(LORAWAN_DATA_RATES) as Region[]).map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </Row>
    </section>
  );
}

export function DeviceForm() {
  const draft = useBudget((s) => s.draft);
  const errors = useBudget((s) => s.deviceErrors);
  return (
    <section className="decide-section" data-testid="budget-device">
      <h3>Device</h3>
      {FIELDS.map((f) => {
        const error = errors[f.path];
        const c = DEFAULT_TRACKER_SOURCES[f.path as keyof typeof DEFAULT_TRACKER_SOURCES];
        const source = `${c.basis} (${c.source}, ${c.date})`;
        return (
          <Row
            key={f.path}
            label={f.label}
            hint={
              error ? (
                <span className="attention-text" role="alert" data-testid={`budget-error-${f.path}`}>
                  {error}
                </span>
              ) : (
                <span className="faint" title={source} data-testid={`budget-default-${f.path}`}>
                  default {shown(f, DEFAULT_TRACKER)} {f.unit}
                  {" · "}
                  {c.estimate ? "our estimate" : c.source}
                </span>
              )
            }
          >
            <div className="decide-inline">
              <NumberInput
                label={f.label}
                value={shown(f, draft)}
                testId={`budget-${f.path}`}
                width={90}
                onCommit={(v) => v !== undefined && editDevice((d) => f.set(d, v / f.scale))}
              />
              <span className="muted">{f.unit}</span>
            </div>
          </Row>
        );
      })}
      <button type="button" className="btn small ghost" data-testid="budget-device-reset" onClick={resetDevice}>
        Back to the default tracker
      </button>
    </section>
  );
}
