// Formats side by side on every platform: monthly cost from every message, worst cases from p95 and max, fit and
// credit-boundary crossings.
import { type FleetCell, type FleetResult, platformById } from "#planning";
import { money } from "../money.ts";

const pct = (x: number) => `${(x * 100).toFixed(x > 0 && x < 0.01 ? 2 : 0)} %`;
const words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];

/** "12 % of messages cost two credits" / "40 % of records need two messages"; null when everything costs one. */
export function crossings(c: FleetCell): string | null {
  const above = c.unitShares.filter((u) => u.share > 0 && u.units > 1);
  if (!above.length) return null;
  const n = (u: number) => words[u] ?? String(u);
  return above
    .map((u) =>
      c.unitName === "credits"
        ? `${pct(u.share)} of messages cost ${n(u.units)} credits`
        : `${pct(u.share)} of records need ${n(u.units)} messages`,
    )
    .join(", ");
}

function Fit({ c }: { c: FleetCell }) {
  if (c.limit === null) return <span className="verdict none">no limit</span>;
  if (c.fitsMax) return <span className="verdict fits">✓ fits {c.limit} B</span>;
  return (
    <span
      className="verdict over"
      title={`${pct(c.shareOver)} of messages are over ${c.limit} B; they are sent as ${c.fragmentsPerRecord.toFixed(2)} messages per record on average`}
    >
      ✗ over {c.limit} B · {c.fragmentation.fragments.max} msgs/record
    </span>
  );
}

export function CostTable({ result }: { result: FleetResult }) {
  const platforms = [...new Map(result.cells.map((c) => [c.platformId, c.platformName])).entries()];
  const formats = [...new Map(result.cells.map((c) => [c.format, c.formatLabel])).entries()];
  const months = result.scenario.months;
  return (
    <table className="data cost-table" data-testid="cost-table">
      <thead>
        <tr>
          <th scope="col">Format</th>
          {platforms.map(([id, name]) => (
            <th key={id} scope="col">
              {name}
              {result.scenario.billing[id] === undefined && platformById(id)?.priceBasis?.kind === "estimate" ? (
                <div
                  className="attention-text"
                  data-testid={`estimate-${id}`}
                  title={platformById(id)!.priceBasis!.source}
                >
                  estimated price
                </div>
              ) : null}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {formats.map(([f, label]) => (
          <tr key={f}>
            <th scope="row">{label}</th>
            {platforms.map(([p]) => {
              const c = result.cells.find((x) => x.format === f && x.platformId === p);
              if (!c) return <td key={p}>–</td>;
              const cross = crossings(c);
              return (
                <td key={p} data-testid={`cost-${f}-${p}`} data-value={c.monthly.exact ?? ""}>
                  <div className="cost-main">
                    {c.monthly.exact === undefined ? (
                      <span className="faint">no price</span>
                    ) : (
                      `${money(c.monthly.exact, result.currency)}/mo`
                    )}
                  </div>
                  <div className="cost-sub">
                    p95 {money(c.monthly.p95, result.currency)} · max {money(c.monthly.max, result.currency)}
                  </div>
                  {months > 1 && c.total !== undefined ? (
                    <div className="cost-sub">
                      {months} months: {money(c.total, result.currency)}
                    </div>
                  ) : null}
                  {c.savingVsJson !== null && c.format !== "json" ? (
                    <div className="cost-sub saving">saves {money(c.savingVsJson, result.currency)}/mo vs JSON</div>
                  ) : null}
                  {c.stack !== "raw" ? (
                    <div
                      className="cost-sub"
                      data-testid={`onair-cost-${f}-${p}`}
                      data-value={c.onAir.mean}
                      title={`${c.stackName}: the payload's ${c.sizes.mean.toFixed(1)} B plus the stack's headers, billed with every message`}
                    >
                      {c.onAir.mean.toFixed(1)} B on air over {c.stackName}
                    </div>
                  ) : null}
                  <div className="cost-sub">
                    <Fit c={c} />
                  </div>
                  {cross ? (
                    <div className="cost-sub" data-testid={`crossings-${f}-${p}`}>
                      {cross}
                    </div>
                  ) : null}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
