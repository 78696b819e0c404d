// Records that do not fit a platform: messages per record, header overhead, queue and caps, and what it costs.
import { convert, type FleetResult, FRAGMENT_HEADER_BYTES, MAX_FRAGMENTS, REASSEMBLY_RULE } from "#planning";
import { money } from "../money.ts";

const n1 = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 2 });

export function FragmentationPanel({ result, showRule = true }: { result: FleetResult; showRule?: boolean }) {
  const over = result.cells.filter(
    (c) => c.fragmentation.mode === "fragmented" || c.fragmentation.mode === "too-large",
  );
  if (!over.length)
    return (
      <div className="empty" data-testid="fragmentation-empty">
        <strong>Every record fits every chosen platform</strong>
        Nothing is fragmented: each record travels as one message.
      </div>
    );
  // only an IP link with a datagram limit puts transport headers on fragments: the column is shown when one does
  const transport = over.some((c) => c.fragmentation.transportBytesPerRecord > 0);
  // a SCHC stack fragments its own way (RFC 8724 §8): each scheme in use is explained once
  const schemes = [...new Map(over.map((c) => [c.fragmentation.scheme, c.fragmentation.reassembly])).entries()];
  return (
    <div data-testid="fragmentation">
      <table className="data">
        <thead>
          <tr>
            <th scope="col">Format on platform</th>
            <th scope="col">messages/record</th>
            <th scope="col">header B/record</th>
            {transport ? (
              <th
                scope="col"
                title="Bytes the transport stack adds per record: its headers on every fragment (0 for a raw modem payload)"
              >
                transport B/record
              </th>
            ) : null}
            <th scope="col">B on air/record</th>
            <th scope="col">uplinks/day/device</th>
            <th scope="col">queue</th>
            <th scope="col">extra cost/mo</th>
          </tr>
        </thead>
        <tbody>
          {over.map((c) => {
            const p = c.fragmentation;
            const q = p.queue;
            return (
              <tr key={`${c.format}-${c.platformId}`} data-testid={`frag-${c.format}-${c.platformId}`}>
                <th scope="row">
                  {c.formatLabel} on {c.platformName}
                  {p.reassembly !== REASSEMBLY_RULE ? <span className="muted"> · {p.scheme}</span> : null}
                  {p.mode === "too-large" ? (
                    <span className="over-text">
                      {" "}
                      · over {p.reassembly === REASSEMBLY_RULE ? `${MAX_FRAGMENTS} fragments` : "what it can number"}
                    </span>
                  ) : null}
                </th>
                <td>
                  {n1(p.fragments.mean)} (max {p.fragments.max})
                </td>
                <td>{n1(p.overhead.bytesPerRecord)}</td>
                {transport ? (
                  <td data-testid={`frag-transport-${c.format}-${c.platformId}`}>{n1(p.transportBytesPerRecord)}</td>
                ) : null}
                <td>{n1(p.sentBytesPerRecord)}</td>
                <td className={p.uplinkCap && !p.uplinkCap.ok ? "over-text" : undefined}>
                  {n1(p.transmissionsPerDay.max)}
                  {p.uplinkCap ? ` of ${p.uplinkCap.perDay}` : ""}
                </td>
                <td className={q?.overflows ? "over-text" : undefined}>
                  {q
                    ? `${n1(q.occupancy.min)}–${n1(q.occupancy.max)} of ${q.slots} slots · ${q.latencyHours.min}–${q.latencyHours.max} h`
                    : "–"}
                </td>
                <td>{money(convert(p.cost.extra, c.billingCurrency, result.scenario), result.currency)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {over
        .flatMap((c) => c.fragmentation.notes.map((n) => `${c.formatLabel} on ${c.platformName}: ${n}`))
        .map((n) => (
          <p key={n} className="note">
            {n}
          </p>
        ))}
      {showRule
        ? schemes.map(([scheme, rule]) => (
            <p
              key={scheme}
              className="note"
              data-testid={rule === REASSEMBLY_RULE ? "reassembly-rule" : "reassembly-rule-schc"}
            >
              <strong>
                {rule === REASSEMBLY_RULE ? `Header (${FRAGMENT_HEADER_BYTES} bytes) and reassembly:` : `${scheme}:`}
              </strong>{" "}
              {rule}
            </p>
          ))
        : null}
    </div>
  );
}
