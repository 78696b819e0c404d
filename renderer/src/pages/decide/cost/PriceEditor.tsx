// One platform's billing in this scenario: the catalog's default (with its source) or an edited price.
import {
  type Billing,
  billingFor,
  billingSchema,
  type Currency,
  describeDefaultPrice,
  describePrice,
  type FleetScenario,
  type Money,
  platformById,
  type VolumeUnit,
} from "#planning";
import { editScenario } from "../decideStore.ts";
import { NumberInput } from "../inputs.tsx";

const KINDS: { kind: Billing["kind"]; label: string }[] = [
  { kind: "per-volume", label: "per volume" },
  { kind: "per-message", label: "per message" },
  { kind: "per-credit", label: "per credit" },
  { kind: "monthly-plan", label: "monthly plan" },
];

function blank(kind: Billing["kind"], currency: Currency): Billing {
  const price: Money = { amount: 0, currency };
  switch (kind) {
    case "per-volume":
      return { kind, unit: { symbol: "KB", base: "binary" }, price };
    case "per-message":
      return { kind, price };
    case "per-credit":
      return { kind, bytesPerCredit: 50, minCredits: 1, price };
    case "monthly-plan":
      return { kind, fee: price, includedBytes: 0, overageUnit: { symbol: "KB", base: "binary" }, overagePrice: price };
  }
}

function UnitPicker({ unit, onChange, id }: { unit: VolumeUnit; onChange(u: VolumeUnit): void; id: string }) {
  return (
    <>
      <select
        className="select"
        aria-label="Unit"
        data-testid={`${id}-unit`}
        value={unit.symbol}
        onChange={(e) => onChange({ ...unit, symbol: e.target.value as VolumeUnit["symbol"] })}
      >
        {(["B", "KB", "MB", "GB"] as const).map((u) => (
          <option key={u}>{u}</option>
        ))}
      </select>
      <select
        className="select"
        aria-label="Unit base"
        data-testid={`${id}-base`}
        value={unit.base}
        onChange={(e) => onChange({ ...unit, base: e.target.value as VolumeUnit["base"] })}
        disabled={unit.symbol === "B"}
      >
        <option value="binary">binary (2^10)</option>
        <option value="decimal">decimal (10^3)</option>
      </select>
    </>
  );
}

export function PriceEditor({ s, platformId }: { s: FleetScenario; platformId: string }) {
  const p = platformById(platformId);
  const b = billingFor(s, platformId);
  if (!p || !b) return null;
  const edited = s.billing[platformId] !== undefined;
  const id = `price-${platformId}`;
  const set = (next: Billing) => {
    if (billingSchema.safeParse(next).success)
      editScenario((x) => ({ ...x, billing: { ...x.billing, [platformId]: next } }));
  };
  const reset = () =>
    editScenario((x) => ({
      ...x,
      billing: Object.fromEntries(Object.entries(x.billing).filter(([k]) => k !== platformId)),
    }));
  const money = (m: Money | undefined, on: (m: Money | undefined) => void, what: string) => (
    <>
      <NumberInput
        label={`${p.name} ${what}`}
        value={m?.amount}
        min={0}
        max={1e9}
        optional
        testId={`${id}-${what.replace(/\W+/g, "-")}`}
        width={90}
        onCommit={(v) => on(v === undefined ? undefined : { amount: v, currency: m?.currency ?? s.currency })}
      />
      <select
        className="select"
        aria-label={`${what} currency`}
        value={m?.currency ?? s.currency}
        onChange={(e) => on({ amount: m?.amount ?? 0, currency: e.target.value as Currency })}
      >
        {(["EUR", "USD", "GBP", "CHF"] as const).map((c) => (
          <option key={c}>{c}</option>
        ))}
      </select>
    </>
  );
  return (
    <div className={`price-card${edited ? " edited" : ""}`} data-testid={id}>
      <div className="price-head">
        <strong>{p.name}</strong>
        <select
          className="select"
          aria-label={`${p.name} billing model`}
          data-testid={`${id}-kind`}
          value={b.kind}
          onChange={(e) => set(blank(e.target.value as Billing["kind"], s.currency))}
        >
          {KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
        {edited ? (
          <button
            type="button"
            className="btn small ghost"
            data-testid={`${id}-reset`}
            title={`Back to the catalog: ${describePrice(p.billing)}`}
            onClick={reset}
          >
            Reset
          </button>
        ) : null}
      </div>
      <div className="price-fields">
        {b.kind === "per-volume" && (
          <>
            {money(b.price, (m) => set({ ...b, price: m }), "price")}
            <span className="muted">per</span>
            <UnitPicker id={id} unit={b.unit} onChange={(unit) => set({ ...b, unit })} />
          </>
        )}
        {b.kind === "per-message" && (
          <>
            {money(b.price, (m) => set({ ...b, price: m }), "price")}
            <span className="muted">per message</span>
          </>
        )}
        {b.kind === "per-credit" && (
          <>
            {money(b.price, (m) => set({ ...b, price: m }), "price")}
            <span className="muted">per credit of</span>
            <NumberInput
              label={`${p.name} bytes per credit`}
              value={b.bytesPerCredit}
              integer
              min={1}
              max={1e6}
              width={60}
              onCommit={(v) => v !== undefined && set({ ...b, bytesPerCredit: v })}
            />
            <span className="muted">B, at least</span>
            <NumberInput
              label={`${p.name} minimum credits`}
              value={b.minCredits}
              integer
              min={0}
              max={1000}
              width={50}
              onCommit={(v) => v !== undefined && set({ ...b, minCredits: v })}
            />
          </>
        )}
        {b.kind === "monthly-plan" && (
          <>
            {money(b.fee, (m) => set({ ...b, fee: m }), "fee")}
            <span className="muted">per device-month incl.</span>
            <NumberInput
              label={`${p.name} included bytes`}
              value={b.includedBytes}
              min={0}
              max={1e15}
              width={90}
              onCommit={(v) => v !== undefined && set({ ...b, includedBytes: v })}
            />
            <span className="muted">B; over:</span>
            {money(b.overagePrice, (m) => set({ ...b, overagePrice: m }), "overage")}
            <span className="muted">per</span>
            <UnitPicker
              id={`${id}-overage`}
              unit={b.overageUnit}
              onChange={(overageUnit) => set({ ...b, overageUnit })}
            />
          </>
        )}
      </div>
      {(b.kind === "per-volume" || b.kind === "per-message") && (
        <div className="price-fields">
          <span className="muted">billed at least</span>
          <NumberInput
            label={`${p.name} minimum billed bytes`}
            value={b.minBilledBytes}
            integer
            min={0}
            max={1e6}
            optional
            width={60}
            onCommit={(v) =>
              set(v === undefined ? (({ minBilledBytes: _m, ...rest }) => rest)(b) : { ...b, minBilledBytes: v })
            }
          />
          <span className="muted">B per message</span>
        </div>
      )}
      <div className="price-source" data-testid={`${id}-source`}>
        {edited ? <>Edited · catalog default: {describeDefaultPrice(p)}</> : <>Default: {describeDefaultPrice(p)}</>}
        {p.priceBasis?.kind === "estimate" ? (
          <span className="attention-text" data-testid={`${id}-estimate`}>
            {" "}
            · estimate
          </span>
        ) : null}{" "}
        · Limits: {p.source}
      </div>
    </div>
  );
}
