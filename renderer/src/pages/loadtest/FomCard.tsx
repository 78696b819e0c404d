// The Figure of Merit table: Table 6 of the paper beside the latest run of the same cell here.
import { formatLabel } from "#codecs";
import { PAPER_TABLE6 } from "#planning/paper";
import { Card, fmt } from "./loadTestParts.tsx";
import { showRun, useLoadTest } from "./loadTestStore.ts";

export function FomCard() {
  const history = useLoadTest((s) => s.history);
  const ours = (format: string, devices: number, replicas: number) =>
    history.find(
      (h) =>
        h.status === "completed" &&
        h.paperWorkload &&
        h.format === format &&
        h.devices === devices &&
        h.replicas === replicas &&
        h.fom !== null &&
        h.valid !== false,
    );
  const others = history.filter(
    (h) =>
      h.status === "completed" &&
      h.fom !== null &&
      !PAPER_TABLE6.some(
        (p) => p.format === h.format && p.devices === h.devices && p.instances === h.replicas && h.paperWorkload,
      ),
  );
  return (
    <Card title="Figure of Merit" testId="lt-fom" className="wide">
      <p className="muted lt-small">
        FoM = RPS × success rate × (1 s)² / p95 — the paper's Table 6 and the latest run of the same cell here (devices
        waiting U(1, 3) s on the local stack).
      </p>
      <div className="lt-scroll">
        <table className="lt-table compact" data-testid="lt-fom-table">
          <thead>
            <tr>
              <th>format</th>
              <th className="num">devices</th>
              <th className="num">inst.</th>
              <th className="num">paper RPS</th>
              <th className="num">paper p95</th>
              <th className="num">paper FoM</th>
              <th className="num">our RPS</th>
              <th className="num">our p95</th>
              <th className="num">our FoM</th>
            </tr>
          </thead>
          <tbody>
            {PAPER_TABLE6.map((p) => {
              const h = ours(p.format, p.devices, p.instances);
              return (
                <tr
                  key={`${p.format}-${p.devices}-${p.instances}`}
                  data-testid="lt-fom-row"
                  data-has-ours={h ? "true" : "false"}
                >
                  <td>{formatLabel(p.format)}</td>
                  <td className="num">{p.devices}</td>
                  <td className="num">{p.instances}</td>
                  <td className="num">{p.rps}</td>
                  <td className="num">{fmt.ms(p.p95Seconds * 1000)}</td>
                  <td className="num">{p.fom}</td>
                  <td className="num">{h ? fmt.rps(h.rps) : "–"}</td>
                  <td className="num">{h ? fmt.ms(h.p95Ms) : "–"}</td>
                  <td className="num">
                    {h ? (
                      <button type="button" className="lt-link" onClick={() => void showRun(h.id)}>
                        {fmt.int(h.fom)}
                      </button>
                    ) : (
                      <span className="faint">not run</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {others.length ? (
        <p className="muted lt-small" data-testid="lt-fom-others">
          Other runs:{" "}
          {others
            .slice(0, 6)
            .map(
              (h) =>
                `${formatLabel(h.format)} ${h.devices} → ${h.valid === false ? "not valid (client-limited)" : fmt.int(h.fom)}`,
            )
            .join(" · ")}
        </p>
      ) : null}
    </Card>
  );
}
