// Values the decoder stored exactly as sent although they go beyond the layout (more decimals than a
// field's text form declares, or a flagged range), counted per field: the records are kept unchanged,
// and this is where the layout's engineer sees that the devices say more than the layout does.
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { StackStats } from "#host/api/stack.ts";
import { fmt } from "./format.ts";

const AXIS = { fill: "var(--text-muted)", fontSize: 11 };
const KIND = { precision: "more decimals than declared", range: "outside the declared range" } as const;

export function FlaggedCard({ stats }: { stats: StackStats | null }) {
  const flagged = stats?.flagged;
  const fields = flagged?.fields ?? [];
  const records = stats?.records ?? 0;
  const data = fields.map((f) => ({
    name: `${f.field} (${f.kind})`,
    count: f.count,
    share: records ? f.count / records : 0,
    kind: f.kind,
  }));
  return (
    <section
      className="card stack-card"
      data-testid="stack-flagged"
      aria-label="Values beyond the layout"
      data-records={flagged?.records ?? 0}
    >
      <header className="stack-card-head">
        <h2 className="section-title">Values beyond the layout</h2>
        <span className="spacer" />
        <span className="faint stack-small">
          {flagged?.records
            ? `${fmt.int(flagged.records)} of ${fmt.int(records)} records, stored as sent`
            : "stored exactly as sent, never rounded"}
        </span>
      </header>
      {!flagged ? (
        <p className="empty">Waiting for the decoder's numbers.</p>
      ) : fields.length === 0 ? (
        <p className="empty">
          No value beyond its layout so far: every record fits the decimals and ranges its layout declares.
        </p>
      ) : (
        <>
          <ul style={{ margin: 0, padding: "var(--sp-2) var(--sp-3) 0", listStyle: "none" }}>
            {fields.map((f) => (
              <li
                key={`${f.kind}:${f.field}`}
                data-testid="stack-flagged-field"
                data-field={f.field}
                data-kind={f.kind}
              >
                <code>{f.field}</code> <span className="num">{fmt.int(f.count)}</span>{" "}
                <span className="faint">{KIND[f.kind]}</span>
              </li>
            ))}
          </ul>
          <div className="stack-chart" style={{ height: Math.min(220, 48 + 28 * data.length) }}>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
                <CartesianGrid stroke="var(--border)" strokeDasharray="2 3" horizontal={false} />
                <XAxis type="number" tick={AXIS} allowDecimals={false} />
                <YAxis type="category" dataKey="name" tick={AXIS} width={180} />
                <Tooltip
                  formatter={(v, _n, item) => [
                    `${fmt.int(Number(v))} records (${fmt.pct((item.payload as { share: number }).share)})`,
                    "flagged",
                  ]}
                />
                <Bar dataKey="count" fill="var(--attention)" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </>
      )}
    </section>
  );
}
