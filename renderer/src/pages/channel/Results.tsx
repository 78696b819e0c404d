// What a run produced: seed 003's tables beside the paper, or the fleet's stacks side by side,
// with bytes on air per stack and their CSV.
import { CompletionPerNstart, CompletionVsLoad, GoodputPerNstart } from "./Charts.tsx";
import type { FleetAnswer, Seed003Answer } from "./protocol.ts";
import { downloadText } from "../../download.ts";

const pct = (a: number, b: number) => `${a >= b ? "+" : ""}${((a / b - 1) * 100).toFixed(0)} %`;

export function Seed003Results({ r }: { r: Seed003Answer }) {
  return (
    <>
      <div className="ch-scroll">
        <table className="ch-table" data-testid="ch-seed003-table">
          <thead>
            <tr>
              <th>stack</th>
              <th>goodput KB/s</th>
              <th>paper</th>
              <th>Δ</th>
              <th>load G</th>
              <th>paper G</th>
              <th>collisions</th>
              <th>completion p50 / p95 / p99 s</th>
            </tr>
          </thead>
          <tbody>
            {r.rows.map((row) => (
              <tr key={row.label}>
                <td>{row.label}</td>
                <td className="num">{row.goodputKBps.toFixed(2)}</td>
                <td className="num muted">{row.paperGoodputKBps.toFixed(2)}</td>
                <td className="num">{pct(row.goodputKBps, row.paperGoodputKBps)}</td>
                <td className="num">{row.load.mean.toFixed(4)}</td>
                <td className="num muted">{row.paperLoad ? row.paperLoad.mean.toFixed(4) : "–"}</td>
                <td className="num">{(row.collisionProbability * 100).toFixed(3)} %</td>
                <td className="num">
                  {row.completion.p50.toFixed(1)} / {row.completion.p95.toFixed(1)} / {row.completion.p99.toFixed(1)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted ch-note" data-testid="ch-horizon-note">
        {r.horizon} s of arrivals, one exchange a second on average. The paper ran at least 1000 exchanges: set Seconds
        of arrivals to 1000 to compare closely. Goodput and load grow with the horizon while long exchanges are still
        running.
      </p>
      <p className="muted ch-note">
        In flight: how many requests a CoAP device sends before it waits for answers (the standard's NSTART, 1 by
        default). Load G: packets sent per slot (copies not counted); with three copies per packet, collisions stay rare
        up to about G = 0.6 on 64-slot blocks and then rise steeply.
      </p>
      <div className="ch-charts">
        <GoodputPerNstart rows={r.rows} />
        <CompletionPerNstart rows={r.rows} />
      </div>
    </>
  );
}

export function FleetResults({ r }: { r: FleetAnswer }) {
  return (
    <>
      <p className="ch-note">
        {r.format}: {r.sizes.count} samples, median {r.sizes.p50} B, max {r.sizes.max} B.
      </p>
      <div className="ch-scroll">
        <table className="ch-table" data-testid="ch-fleet-table">
          <thead>
            <tr>
              <th>stack</th>
              <th>traffic</th>
              <th>msg/s</th>
              <th>load G</th>
              <th>collisions</th>
              <th>p50 s</th>
              <th>p95 s</th>
              <th>p99 s</th>
              <th>goodput KB/s</th>
              <th>done</th>
            </tr>
          </thead>
          <tbody>
            {r.stacks.flatMap((s) =>
              s.points.map((p, i) => (
                <tr key={`${s.stack}-${i}`} className={i === 0 ? "ch-own" : undefined}>
                  <td>{i === 0 ? s.stack : ""}</td>
                  <td>{p.loadFactor === 1 ? "your fleet" : `×${p.loadFactor.toFixed(1)}`}</td>
                  <td className="num">{p.messagesPerSecond.toFixed(2)}</td>
                  <td className="num">{p.offeredLoad.mean.toFixed(3)}</td>
                  <td className={`num${p.collisionProbability > 0.01 ? " over-text" : ""}`}>
                    {(p.collisionProbability * 100).toFixed(2)} %
                  </td>
                  <td className="num">{p.completion.p50.toFixed(2)}</td>
                  <td className="num">{p.completion.p95.toFixed(2)}</td>
                  <td className="num">{p.completion.p99.toFixed(2)}</td>
                  <td className="num">{(p.goodputBytesPerSecond / 1024).toFixed(2)}</td>
                  <td className="num">
                    {p.completed}/{p.exchanges}
                    {p.failed ? ` (${p.failed} given up)` : ""}
                  </td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </div>
      <div className="ch-charts">
        <CompletionVsLoad stacks={r.stacks} />
      </div>
      <div className="ch-overhead" data-testid="ch-overhead">
        <div className="ch-overhead-head">
          <h3 className="section-title">Bytes on air for the median message ({r.overhead[0]?.payload ?? 0} B)</h3>
          <span className="spacer" />
          <button
            type="button"
            className="btn small"
            data-testid="ch-overhead-csv"
            onClick={() => downloadText(r.overheadCsv, `bytes-on-air-${r.format}.csv`, "text/csv")}
          >
            Export CSV
          </button>
        </div>
        <div className="ch-scroll">
          <table className="ch-table">
            <thead>
              <tr>
                <th>stack</th>
                <th>overhead B</th>
                <th>on air B</th>
                <th>layers</th>
              </tr>
            </thead>
            <tbody>
              {r.overhead.map((o) => (
                <tr key={o.stack + o.label}>
                  <td>{o.label}</td>
                  <td className="num">{o.overhead}</td>
                  <td className="num">{o.total}</td>
                  <td className="muted">{o.layers.map((l) => `${l.layer} ${l.bytes}`).join(" + ") || "–"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </>
  );
}
