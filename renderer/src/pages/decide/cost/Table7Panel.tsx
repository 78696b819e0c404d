// The paper's Table 7 as published, beside what the general model gives for the same fleet, and why they differ.
import { type FleetResult, PAPER_TABLE7_RULES, paperTable7 } from "#planning";
import { money } from "../money.ts";

const grouped = (x: number, d = 0) => x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });

export function Table7Panel({ result }: { result?: FleetResult | undefined }) {
  const rows = paperTable7();
  const measured = (label: string, platform: string) => {
    const fmt = label === "JSON" ? "json" : label === "Protocol Buffers" ? "protobuf" : "struct-zlib";
    return result?.cells.find((c) => c.format === fmt && c.platformId === platform);
  };
  return (
    <div data-testid="table7">
      <table className="data">
        <thead>
          <tr>
            <th scope="col">Format (paper size)</th>
            <th scope="col">MB/month</th>
            <th scope="col">TN €</th>
            <th scope="col">KB/month</th>
            <th scope="col">NTN €</th>
            {result ? (
              <th scope="col" title="Measured sizes of this layout, every message priced, Astrocast">
                this layout, Astrocast
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const m = measured(r.label, "astrocast");
            return (
              <tr key={r.label} data-testid={`table7-${r.bytes}`}>
                <th scope="row">
                  {r.label} ({r.bytes} B)
                </th>
                <td>{grouped(r.mbPerMonth, 1)}</td>
                <td>{grouped(r.tnEur, 2)}</td>
                <td>{grouped(r.kbPerMonth)}</td>
                <td data-testid={`table7-ntn-${r.bytes}`}>{grouped(r.ntnEurShown)}</td>
                {result ? (
                  <td>{m ? `${money(m.monthly.exact, result.currency)} (${m.sizes.mean.toFixed(1)} B)` : "–"}</td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="note" data-testid="table7-rules">
        <strong>Why these exact figures:</strong> {PAPER_TABLE7_RULES}. The general model keeps full precision (KB
        straight from bytes): JSON's 418 B cost €89,641.41 on Astrocast where the table prints €89,648.
      </p>
    </div>
  );
}
