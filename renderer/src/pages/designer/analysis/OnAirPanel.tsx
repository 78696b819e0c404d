// Bytes on air beside the payload sizes: each chosen platform's transport stack, every format's message with its
// headers, the verdict against a limit that counts what is on air, and a chart of payload versus headers.
import { useMemo } from "react";
import { Bar, BarChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { layoutStackId, onAirSummary, type OnAirSummary, type Platform, platformById, resolveStack } from "#planning";
import { formatTick, tickHeight } from "./formatTick.tsx";
import { useStackChoice } from "./stackChoice.ts";
import { StackCompare } from "./StackCompare.tsx";
import type { SizesView } from "../../../state/analysis.ts";
import { labelRows } from "../../../ui/sizes/axis.ts";
import { useWidth } from "../../../ui/sizes/useWidth.ts";
import { shareOverShort, shareOverText } from "../../../ui/sizes/verdict.ts";
import { StackSelect } from "../../../ui/StackSelect.tsx";

interface Column {
  platform: Platform;
  /** per format id, null when the format could not encode this layout */
  cells: Map<string, OnAirSummary | null>;
}

const shortName = (p: Platform) => p.name.replace(/ \(.*\)$/, "");
const fixed1 = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 1 });

function Cell({ s, testId }: { s: OnAirSummary | null; testId: string }) {
  if (!s) return <td>–</td>;
  const over = s.limit !== null && !s.fitsMax;
  return (
    <td data-testid={testId} data-p50={s.onAir.p50} data-max={s.onAir.max} data-mean={s.onAir.mean}>
      <span className={over ? "over-text" : undefined}>
        {s.onAir.p50} · {s.onAir.max} B
      </span>
      {s.limit !== null ? (
        <span
          className={`verdict ${s.fitsMax ? "fits" : "over"}`}
          title={s.fitsMax ? `every message fits ${s.limit} B` : shareOverText(s.shareOver, s.limit, "messages")}
        >
          {s.fitsMax ? " ✓" : ` ✗ ${shareOverShort(s.shareOver)}`}
        </span>
      ) : null}
    </td>
  );
}

function HeadersChart({ sizes, column }: { sizes: SizesView; column: Column }) {
  const data = sizes.results
    .filter((r) => column.cells.get(r.info.id))
    .map((r) => {
      const s = column.cells.get(r.info.id)!;
      return { short: r.info.short, label: r.info.label, payload: r.stats.p50, headers: s.onAir.p50 - r.stats.p50 };
    });
  const limit = column.platform.uplinkBytes;
  const [ref, width] = useWidth();
  // the plot's width less the value axis (48) and the limit label's room: each format's column
  const right = limit ? 46 : 12;
  const rows = labelRows(
    data.map((d) => d.short),
    data.length ? (width - 48 - right) / data.length : 0,
  );
  return (
    <div ref={ref} className="chart-box" data-testid="onair-chart" style={{ height: 220 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 16, right, bottom: 4, left: 0 }} barCategoryGap="22%">
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis
            dataKey="short"
            tick={formatTick(rows)}
            height={tickHeight(rows)}
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
            formatter={(v, name) => [`${String(v)} B`, name === "payload" ? "payload (p50)" : "stack headers"]}
            labelFormatter={(l) => data.find((d) => d.short === l)?.label ?? String(l)}
          />
          <Bar dataKey="payload" stackId="air" fill="var(--bar-p50)" isAnimationActive={false} />
          <Bar dataKey="headers" stackId="air" fill="var(--bar-max)" isAnimationActive={false} radius={[2, 2, 0, 0]} />
          {limit !== undefined ? (
            <ReferenceLine
              y={limit}
              stroke="var(--text-muted)"
              strokeDasharray="5 4"
              ifOverflow="extendDomain"
              label={{ value: `${limit} B`, position: "right", fill: "var(--text-muted)", fontSize: 11 }}
            />
          ) : null}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function OnAirPanel({
  sizes,
  platformIds,
  layoutName,
}: {
  sizes: SizesView;
  platformIds: readonly string[];
  layoutName: string;
}) {
  const stacks = useStackChoice((s) => s.stacks);
  const choose = useStackChoice((s) => s.choose);
  const columns = useMemo<Column[]>(
    () =>
      platformIds
        .map((id) => platformById(id))
        .filter((p): p is Platform => p !== undefined)
        .map((platform) => ({
          platform,
          cells: new Map(
            sizes.results.map((r) => [
              r.info.id,
              r.stats.count === 0
                ? null
                : onAirSummary(
                    r.sizes,
                    platform,
                    stackOf(platform, stacks[platform.id]),
                    { layout: layoutStackId(layoutName), format: r.info.id },
                    r.stats,
                  ),
            ]),
          ),
        })),
    [sizes, platformIds, stacks, layoutName],
  );
  const ip = columns.find((c) => [...c.cells.values()].some((s) => s && s.stack !== "raw"));
  const example = ip && sizes.results.find((r) => ip.cells.get(r.info.id));
  const exampleSummary = ip && example ? ip.cells.get(example.info.id)! : null;
  // the header choices side by side on the first IP link, whichever stack is chosen on it
  const ipLink = columns.find((c) => c.platform.link === "ip");

  return (
    <div className="panel" data-testid="onair">
      <h3>
        Bytes on air{" "}
        <span className="sub">
          p50 · max per message: the payload plus its transport stack's headers, which limits and volume prices count
        </span>
      </h3>
      {columns.length === 0 ? (
        <p className="note" data-testid="onair-empty">
          Choose platforms (Limits ▾) to see what each format weighs on their links: a modem link carries the payload as
          it is, an IP link (NB-IoT, LTE-M) adds a protocol stack's headers to every message.
        </p>
      ) : (
        <>
          <div className="onair-stacks" style={{ display: "flex", flexWrap: "wrap", gap: "6px 18px", marginBottom: 8 }}>
            {columns.map(({ platform }) => (
              <label key={platform.id} className="decide-inline">
                <span className="muted">{shortName(platform)}</span>
                <StackSelect
                  platform={platform}
                  value={resolveStack(platform, stackOf(platform, stacks[platform.id]))}
                  onChange={(s) => choose(platform.id, s)}
                  testId={`onair-stack-${platform.id}`}
                />
              </label>
            ))}
          </div>
          <div className="table-scroll" data-testid="onair-scroll">
            <table className="data onair-table" data-testid="onair-table">
              <thead>
                <tr>
                  <th scope="col">Format</th>
                  <th scope="col" title="The payload alone, as the sizes above">
                    payload
                  </th>
                  {columns.map(({ platform }) => (
                    <th key={platform.id} scope="col" title={platform.name}>
                      on air · {shortName(platform)}
                      {platform.uplinkBytes !== undefined ? ` · ${platform.uplinkBytes} B` : ""}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {sizes.results.map((r) => (
                  <tr key={r.info.id}>
                    <td>{r.info.label}</td>
                    <td data-testid={`onair-payload-${r.info.id}`}>
                      {r.stats.count === 0 ? "–" : `${r.stats.p50} · ${r.stats.max} B`}
                    </td>
                    {columns.map((c) => (
                      <Cell
                        key={c.platform.id}
                        s={c.cells.get(r.info.id) ?? null}
                        testId={`onair-${r.info.id}-${c.platform.id}`}
                      />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {ip && example && exampleSummary ? (
            <>
              <h4 style={{ margin: "12px 0 4px" }}>
                {shortName(ip.platform)} over {exampleSummary.stackName}: payload and headers per format (p50)
              </h4>
              <HeadersChart sizes={sizes} column={ip} />
              <div className="chart-legend">
                <span className="key">
                  <span className="sw" style={{ background: "var(--bar-p50)" }} />
                  payload (p50)
                </span>
                <span className="key">
                  <span className="sw" style={{ background: "var(--bar-max)" }} />
                  {exampleSummary.stackName} headers
                </span>
                {ip.platform.uplinkBytes !== undefined ? (
                  <span className="key">
                    <span className="line" />
                    {shortName(ip.platform)} limit on air
                  </span>
                ) : null}
              </div>
              <p className="note" data-testid="onair-layers">
                A {example.stats.p50}-byte {example.info.label} message carries{" "}
                {exampleSummary.layers.map((l) => `${l.layer} ${l.bytes} B`).join(" + ")} ={" "}
                {fixed1(exampleSummary.onAir.p50 - example.stats.p50)} B of headers. Header sizes follow the standards'
                formats and were checked against what coap-client, mosquitto_pub, curl and python-requests send; SCHC's
                against what microschc compresses.
              </p>
            </>
          ) : (
            <p className="note" data-testid="onair-raw">
              Every chosen platform is a modem link: on air is the payload itself (the operator frames it and counts
              payload bytes). NB-IoT / LTE-M under Limits ▾ compares IP stacks.
            </p>
          )}
          {ipLink ? <StackCompare sizes={sizes} platform={ipLink.platform} layoutName={layoutName} /> : null}
          <p className="note">
            The per-field view counts payload bytes only: headers belong to the message, not to a field.
          </p>
        </>
      )}
    </div>
  );
}

/** The designer's choice when the platform can carry it (a stale choice for a modem link falls back to raw). */
function stackOf(platform: Platform, chosen: string | undefined): string | undefined {
  return chosen === undefined || (platform.link !== "ip" && chosen !== "raw") ? undefined : chosen;
}
