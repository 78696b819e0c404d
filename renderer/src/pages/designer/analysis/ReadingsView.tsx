// Readings per message (issue #27): what a batch of readings costs in every format, in both forms (columns: each
// repeated value as an array; delta: the first reading whole, the next ones as differences). Readings that fit each
// chosen platform (a chart), bytes per message and per reading, the first reading's cost per field against each next
// one's, and what batching costs in freshness (the oldest reading waits N × interval). The figures come from the
// sizes workers (worker/batchFigures.ts), format by format, for the layout on screen.
import { useMemo, useState } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { CODECS, FORMAT_IDS, type FormatId, type Layout } from "#codecs";
import { PLATFORMS } from "#planning";
import "../batch.css";
import { logSummaryOf, ReadingsLog } from "./ReadingsLog.tsx";
import { useAnalysis, type BatchView } from "../../../state/analysis.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { useReadingsLog } from "../../../state/readingsLog.ts";
import { useSettings } from "../../../state/settings.ts";
import { fixed1 } from "../../../ui/format.ts";
import type { BatchFormatResult, BatchFormResult } from "../../../worker/protocol.ts";
import { type Batch, defaultFitPlatform, duration, movingFields, turnBatch } from "../edits/batch.ts";

const FORM_LABEL = { columns: "columns", delta: "delta" } as const;
const FORM_HELP = {
  columns: "each repeated value as an array (Protobuf packed, CBOR/MessagePack/JSON arrays, Struct/SBE/bit-packed)",
  delta: "the first reading whole, each next one as its difference from the one before, at the declared precision",
} as const;

const platformName = (id: string) => PLATFORMS.find((p) => p.id === id)?.name.replace(/ \(.*\)$/, "") ?? id;
const label = (f: FormatId) => CODECS[f].info.label;
const short = (f: FormatId) => CODECS[f].info.short;

function Empty({ layout }: { layout: Layout }) {
  const moving = movingFields(layout);
  return (
    <div className="empty" data-testid="readings-empty">
      <strong>One reading per message</strong>
      This layout sends each reading in a message of its own. A device that wakes every 15 minutes and sends what it
      measured since its last message carries many readings in one: turn on a batch to size that.
      <div style={{ marginTop: 12 }}>
        <button
          type="button"
          className="btn primary"
          data-testid="readings-setup"
          disabled={moving.length === 0}
          onClick={() => turnBatch(true, defaultFitPlatform())}
        >
          Set up a batch from the moving fields
        </button>
      </div>
      <p className="faint" style={{ marginTop: 8 }}>
        {moving.length === 0
          ? "No field moves between readings: add a number (a position, a temperature) to repeat per reading."
          : `Repeats ${moving.map((f) => f.name).join(", ")} per reading, every 15 minutes; the others once per message. Change it under Readings per message in the layout settings.`}
      </p>
    </div>
  );
}

/** "10 readings every 15 min" or "as many as fit Astrocast (160 B) every 15 min", with the wait it costs. */
function Summary({ batch }: { batch: Batch }) {
  const every = duration(batch.intervalSeconds);
  if (batch.readings.kind === "fixed") {
    const n = batch.readings.count;
    return (
      <p className="note" data-testid="readings-summary">
        <strong>Readings per message</strong>: {n} reading{n === 1 ? "" : "s"} per message, one every {every}:{" "}
        <strong data-testid="readings-wait" data-seconds={n * batch.intervalSeconds}>
          the oldest reading waits {duration(n * batch.intervalSeconds)}
        </strong>{" "}
        before its message is sent (N × interval).
      </p>
    );
  }
  const platform = batch.readings.platform;
  const p = PLATFORMS.find((x) => x.id === platform);
  return (
    <p className="note" data-testid="readings-summary">
      <strong>Readings per message</strong>: as many readings as fit one{" "}
      {p ? `${platformName(p.id)} message (${p.uplinkBytes} B)` : "message"}, one every {every}: each format fits a
      different number, so the oldest reading waits that many × {every} (the last column).
    </p>
  );
}

interface FitDatum {
  format: string;
  label: string;
  columns: number;
  delta: number;
}

function FitChart({ items, platform }: { items: BatchFormatResult[]; platform: { id: string; bytes: number } }) {
  const data: FitDatum[] = items.map((it) => ({
    format: short(it.format),
    label: label(it.format),
    columns: it.forms.find((f) => f.form === "columns")?.fits[platform.id] ?? 0,
    delta: it.forms.find((f) => f.form === "delta")?.fits[platform.id] ?? 0,
  }));
  // a bar of 0 draws nothing: name the formats that fit no reading at all
  const none = items.filter((it) => it.forms.every((f) => f.fits[platform.id] === 0)).map((it) => short(it.format));
  return (
    <>
      <div
        className="chart-box"
        style={{ height: data.length * 34 + 40 }}
        data-testid={`readings-fit-chart-${platform.id}`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} layout="vertical" margin={{ top: 4, right: 28, bottom: 4, left: 4 }} barGap={1}>
            <CartesianGrid horizontal={false} stroke="var(--border)" />
            <XAxis
              type="number"
              allowDecimals={false}
              tick={{ fill: "var(--text-muted)", fontSize: 11 }}
              tickLine={false}
              axisLine={{ stroke: "var(--border-strong)" }}
            />
            <YAxis
              type="category"
              dataKey="format"
              tick={{ fill: "var(--text-muted)", fontSize: 11 }}
              tickLine={false}
              axisLine={false}
              width={76}
            />
            <Tooltip
              cursor={{ fill: "var(--surface-2)" }}
              formatter={(v, name) => [`${String(v)} readings`, name === "delta" ? "delta form" : "columns form"]}
              labelFormatter={(l) => data.find((d) => d.format === l)?.label ?? String(l)}
            />
            <Bar
              dataKey="columns"
              fill="var(--bar-p50)"
              isAnimationActive={false}
              label={{ position: "right", fill: "var(--text-muted)", fontSize: 10 }}
            />
            <Bar
              dataKey="delta"
              fill="var(--bar-max)"
              isAnimationActive={false}
              label={{ position: "right", fill: "var(--text-muted)", fontSize: 10 }}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      {none.length > 0 && (
        <p className="note" data-testid={`readings-none-${platform.id}`}>
          Not even one reading fits {platform.bytes} B in {none.join(", ")}.
        </p>
      )}
    </>
  );
}

function FormCells({
  r,
  format,
  interval,
  single,
  limit,
}: {
  r: BatchFormResult;
  format: FormatId;
  interval: number;
  single: number | null;
  /** the strictest chosen limit: a message over it is marked */
  limit: { id: string; bytes: number } | undefined;
}) {
  const id = `${format}-${r.form}`;
  if (r.error || !r.stats)
    return (
      <>
        <td data-testid={`readings-n-${id}`} data-value={r.readings}>
          {r.readings || "–"}
        </td>
        <td colSpan={4} className="over-text readings-error" data-testid={`readings-error-${id}`}>
          {r.error ?? "no message encoded"}
        </td>
      </>
    );
  const perReading = r.stats.mean / r.readings;
  return (
    <>
      <td className="num" data-testid={`readings-n-${id}`} data-value={r.readings}>
        {r.readings}
      </td>
      <td
        className={`num${limit && r.stats.max > limit.bytes ? " over-text" : ""}`}
        data-testid={`readings-bytes-${id}`}
        data-p50={r.stats.p50}
        data-max={r.stats.max}
        title={limit && r.stats.max > limit.bytes ? `over ${platformName(limit.id)}'s ${limit.bytes} B` : undefined}
      >
        {r.stats.p50} · {r.stats.max} B
      </td>
      <td
        className="num"
        data-testid={`readings-per-${id}`}
        data-value={perReading}
        title={single !== null ? `one reading per message: ${single} B (p50)` : undefined}
      >
        {fixed1(perReading)} B
        {single !== null && single > 0 ? (
          <span className="faint"> ({Math.round((1 - perReading / single) * 100)} % less)</span>
        ) : null}
      </td>
      <td className="num" data-testid={`readings-wait-${id}`} data-seconds={r.readings * interval}>
        {duration(r.readings * interval)}
      </td>
    </>
  );
}

function BytesTable({
  view,
  batch,
  limit,
}: {
  view: BatchView;
  batch: Batch;
  limit: { id: string; bytes: number } | undefined;
}) {
  const sizes = useAnalysis((s) => s.sizes);
  const single = (f: FormatId) => sizes?.results.find((r) => r.info.id === f)?.stats.p50 ?? null;
  return (
    <div className="table-scroll">
      <table className="data readings-table" data-testid="readings-table">
        <thead>
          <tr>
            <th scope="col">Format</th>
            <th scope="col">form</th>
            <th scope="col" title="Readings per message sized">
              readings
            </th>
            <th scope="col" title="Bytes per message: p50 · max over the messages sized">
              message
            </th>
            <th scope="col" title="Mean message bytes ÷ readings; in brackets, against one reading per message">
              per reading
            </th>
            <th scope="col" title="The oldest reading of a message waits readings × interval">
              oldest waits
            </th>
          </tr>
        </thead>
        <tbody>
          {view.items.flatMap((it) =>
            it.forms.map((r, i) => (
              <tr key={`${it.format}-${r.form}`} data-pending={view.pending.includes(it.format)}>
                {i === 0 ? <td rowSpan={it.forms.length}>{label(it.format)}</td> : null}
                <td className="form-head" title={FORM_HELP[r.form]}>
                  {FORM_LABEL[r.form]}
                </td>
                <FormCells
                  r={r}
                  format={it.format}
                  interval={batch.intervalSeconds}
                  single={single(it.format)}
                  limit={limit}
                />
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}

/** The first reading's cost per field against each next one's, in one format (both forms side by side). */
function FieldCosts({ view, layout }: { view: BatchView; layout: Layout }) {
  const byteMapFormat = useSettings((s) => s.byteMapFormat);
  const [format, setFormat] = useState<FormatId>(byteMapFormat);
  const item = view.items.find((it) => it.format === format) ?? view.items[0];
  const batch = layout.batch!;
  const perReading = new Set(batch.perReading.map((p) => p.field));
  const rows = useMemo(() => {
    if (!item) return [];
    const col = item.forms.find((f) => f.form === "columns");
    const del = item.forms.find((f) => f.form === "delta");
    return layout.fields.map((f) => ({
      field: f,
      repeat: perReading.has(f.id),
      columns: col?.fields.find((c) => c.field === f.id),
      delta: del?.fields.find((c) => c.field === f.id),
    }));
    // perReading is derived from layout
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [item, layout]);
  if (!item) return null;
  const b = (x: number | undefined) => (x === undefined ? "–" : fixed1(x));
  return (
    <div className="panel" data-testid="readings-fields">
      <h3>
        First reading against each next one, per field{" "}
        <span className="sub">bytes of the first message sized; framing (counts, keys, lengths) apart</span>
      </h3>
      <label className="readings-controls">
        Format
        <select
          className="select"
          value={item.format}
          data-testid="readings-fields-format"
          onChange={(e) => setFormat(e.target.value as FormatId)}
        >
          {FORMAT_IDS.map((f) => (
            <option key={f} value={f}>
              {label(f)}
            </option>
          ))}
        </select>
      </label>
      <div className="table-scroll">
        <table className="data readings-table">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">sent</th>
              <th scope="col" title="columns form: the first reading's value">
                first · columns
              </th>
              <th scope="col" title="columns form: each later reading's value, on average">
                next · columns
              </th>
              <th scope="col" title="delta form: the first reading's value, whole">
                first · delta
              </th>
              <th scope="col" title="delta form: each later reading's difference, on average">
                next · delta
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.field.id} data-testid={`readings-field-${r.field.id}`}>
                <td>{r.field.name}</td>
                <td className="form-head">{r.repeat ? "per reading" : "once"}</td>
                {r.repeat ? (
                  <>
                    <td className="num">{b(r.columns?.first)}</td>
                    <td className="num">{b(r.columns?.next)}</td>
                    <td className="num" data-testid={`readings-first-${r.field.id}`} data-value={r.delta?.first}>
                      {b(r.delta?.first)}
                    </td>
                    <td className="num" data-testid={`readings-next-${r.field.id}`} data-value={r.delta?.next}>
                      {b(r.delta?.next)}
                    </td>
                  </>
                ) : (
                  // sent once: paid with the first reading, nothing for the next ones
                  <>
                    <td className="num">{b(r.columns?.once)}</td>
                    <td className="num faint">–</td>
                    <td className="num">{b(r.delta?.once)}</td>
                    <td className="num faint">–</td>
                  </>
                )}
              </tr>
            ))}
            <tr>
              <td>Framing</td>
              <td className="form-head">per message</td>
              <td className="num">{b(item.forms.find((f) => f.form === "columns")?.framing)}</td>
              <td className="num faint">–</td>
              <td className="num">{b(item.forms.find((f) => f.form === "delta")?.framing)}</td>
              <td className="num faint">–</td>
            </tr>
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function ReadingsView({ layout }: { layout: Layout }) {
  const view = useAnalysis((s) => s.batch);
  const validKey = useDesigner((s) => s.validKey);
  const logId = useReadingsLog((s) => s.log?.id);
  const batch = layout.batch;
  if (!batch) return <Empty layout={layout} />;
  const current = view && view.layoutKey === validKey;
  // a log with problems sizes nothing: its problems alone, not charts of nothing
  const logSummary = logSummaryOf(view, logId);
  if (logSummary && logSummary.problems.length > 0)
    return (
      <div className="sizes-view" data-testid="readings-view" data-log-problems="true">
        <ReadingsLog view={view} />
      </div>
    );
  if (!view || view.items.length === 0)
    return (
      <div className="empty" data-testid="readings-loading">
        Sizing messages of many readings in every format…
      </div>
    );
  const limits = view.ask
    .split("|")[0]!
    .split(",")
    .filter(Boolean)
    .map((s) => {
      const [id, bytes] = s.split(":");
      return { id: id!, bytes: Number(bytes) };
    });
  return (
    <div
      className="sizes-view"
      data-testid="readings-view"
      data-layout-key={view.layoutKey}
      data-complete={current && view.pending.length === 0}
      data-stale={!current}
    >
      <ReadingsLog view={view} />
      <Summary batch={batch} />
      <div className="panel">
        <h3>
          Readings that fit one message{" "}
          <span className="sub">
            light: columns form · dark: delta form{!current || view.pending.length ? " · updating…" : ""}
          </span>
        </h3>
        {limits.length === 0 ? (
          <p className="note" data-testid="readings-no-limit">
            Choose platforms with a message limit (Limits ▾) to see how many readings fit each one.
          </p>
        ) : (
          limits.map((l) => (
            <div key={l.id}>
              <h4 style={{ margin: "8px 0 2px" }}>
                {platformName(l.id)} · {l.bytes} B
              </h4>
              <FitChart items={view.items} platform={l} />
            </div>
          ))
        )}
      </div>
      <div className="panel">
        <h3>
          Bytes per message and per reading{" "}
          <span className="sub">
            {batch.readings.kind === "fixed"
              ? `${batch.readings.count} readings per message`
              : `as many readings as fit ${platformName(batch.readings.platform)}`}
          </span>
        </h3>
        <BytesTable view={view} batch={batch} limit={limits[0]} />
        <p className="note">
          <strong>Columns</strong>: {FORM_HELP.columns}. <strong>Delta</strong>: {FORM_HELP.delta}. Each message decodes
          alone: a lost message loses only its own readings.
        </p>
      </div>
      <FieldCosts view={view} layout={layout} />
    </div>
  );
}
