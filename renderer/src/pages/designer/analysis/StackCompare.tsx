// On an IP link, the header choices side by side for every format: the payload as Non-IP Data Delivery,
// SCHC-compressed CoAP, and CoAP over UDP/IPv4 and IPv6 as sent, in bytes on air and in money for the Cost
// page's default fleet (planning's compareStacks: the fleet grid with each stack chosen in turn).
import { useMemo } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import {
  compareStacks,
  type ComparedStack,
  defaultScenario,
  formatMoney,
  layoutStackId,
  type Platform,
} from "#planning";
import { formatTick, tickHeight } from "./formatTick.tsx";
import type { SizesView } from "../../../state/analysis.ts";
import { labelRows } from "../../../ui/sizes/axis.ts";
import { useWidth } from "../../../ui/sizes/useWidth.ts";

const COLORS = ["var(--series-1)", "var(--series-2)", "var(--series-3)", "var(--series-4)"];
const shortName = (p: Platform) => p.name.replace(/ \(.*\)$/, "");

export function StackCompare({
  sizes,
  platform,
  layoutName,
}: {
  sizes: SizesView;
  platform: Platform;
  layoutName: string;
}) {
  const scenario = useMemo(() => defaultScenario(), []);
  const rows = useMemo<ComparedStack[]>(
    () =>
      compareStacks(
        platform.id,
        sizes.results.map((r) => ({ format: r.info.id, label: r.info.label, stats: r.stats, sizes: r.sizes })),
        { layout: layoutStackId(layoutName) },
        scenario,
      ),
    [platform.id, sizes, layoutName, scenario],
  );
  const formats = sizes.results.filter((r) => r.stats.count > 0);
  const [ref, width] = useWidth();
  // the plot's width less the value axis (48) and the right margin (12): each format's column
  const labelLines = labelRows(
    formats.map((r) => r.info.short),
    formats.length ? (width - 60) / formats.length : 0,
  );
  if (rows.length === 0 || formats.length === 0) return null;
  const cell = (row: ComparedStack, format: string) => row.cells.find((c) => c.format === format);
  const data = formats.map((r) => ({
    short: r.info.short,
    label: r.info.label,
    ...Object.fromEntries(rows.map((row) => [row.stack, cell(row, r.info.id)?.onAir.p50 ?? 0])),
  }));
  const fleet = `${scenario.devices.toLocaleString("en-US")} devices × ${
    scenario.cadence.kind === "per-day"
      ? `${scenario.cadence.messagesPerDay} messages a day`
      : "the Cost page's cadence"
  }`;
  const fragmented = rows.flatMap((row) => row.cells.filter((c) => c.fragments && c.fragments.fragments > 1));

  return (
    <div data-testid="stack-compare">
      <h4 style={{ margin: "12px 0 4px" }}>
        {shortName(platform)}: NIDD, SCHC and uncompressed CoAP side by side (p50 on air, € per month for {fleet})
      </h4>
      <div ref={ref} className="chart-box" data-testid="stack-compare-chart" style={{ height: 220 }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 16, right: 12, bottom: 4, left: 0 }} barCategoryGap="18%">
            <CartesianGrid vertical={false} stroke="var(--border)" />
            <XAxis
              dataKey="short"
              tick={formatTick(labelLines)}
              height={tickHeight(labelLines)}
              tickLine={false}
              axisLine={{ stroke: "var(--border-strong)" }}
              interval={0}
            />
            <YAxis
              tick={{ fill: "var(--text-muted)", fontSize: 11 }}
              tickLine={false}
              axisLine={false}
              width={48}
              unit=" B"
            />
            <Tooltip
              cursor={{ fill: "var(--surface-2)" }}
              formatter={(v, name) => [`${String(v)} B`, rows.find((r) => r.stack === name)?.short ?? String(name)]}
              labelFormatter={(l) => data.find((d) => d.short === l)?.label ?? String(l)}
            />
            {rows.map((row, i) => (
              <Bar key={row.stack} dataKey={row.stack} fill={COLORS[i]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <div className="chart-legend">
        {rows.map((row, i) => (
          <span key={row.stack} className="key">
            <span className="sw" style={{ background: COLORS[i] }} />
            {row.short}
          </span>
        ))}
      </div>
      <div className="table-scroll">
        <table className="data onair-table" data-testid="stack-compare-table">
          <thead>
            <tr>
              <th scope="col">Format</th>
              <th scope="col" title="The payload alone (raw), as the sizes above">
                raw payload
              </th>
              {rows.map((row) => (
                <th key={row.stack} scope="col" title={row.name}>
                  {row.short}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {formats.map((r) => (
              <tr key={r.info.id}>
                <td>{r.info.label}</td>
                <td>{r.stats.p50} B</td>
                {rows.map((row) => {
                  const c = cell(row, r.info.id);
                  return c ? (
                    <td
                      key={row.stack}
                      data-testid={`stack-compare-${row.stack}-${r.info.id}`}
                      data-p50={c.onAir.p50}
                      data-monthly={c.monthly ?? ""}
                    >
                      {c.onAir.p50} B · {formatMoney(c.monthly, scenario.currency)}
                    </td>
                  ) : (
                    <td key={row.stack}>–</td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="note" data-testid="stack-compare-note">
        NIDD (3GPP Non-IP Data Delivery, TS 23.682 §4.5.14; carried in NAS ESM data transport, TS 24.301) hands the
        payload to the network without IP, UDP or CoAP headers. SCHC (RFC 8724, CoAP per RFC 8824) keeps CoAP/UDP/IPv6
        end to end but sends only a rule id (8 bits) and the low 4 bits of the CoAP Message ID and Token: 2 B per
        message. Its rule is under Export → SCHC rule set.{" "}
        {platform.uplinkBytes === undefined
          ? "This platform sets no message limit, so no SCHC fragmentation is counted."
          : fragmented.length === 0
            ? `Every SCHC packet fits ${platform.uplinkBytes} B: no fragmentation.`
            : `Over ${platform.uplinkBytes} B a SCHC packet is fragmented (ACK-on-Error, 2 B per fragment + 4 B RCS): up to ${Math.max(...fragmented.map((c) => c.fragments!.fragments))} fragments.`}
      </p>
    </div>
  );
}
