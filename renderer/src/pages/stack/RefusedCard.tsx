// Records the CSE refused for good, per container with its answer, and the containers backing off
// on their own — with a Retry that puts refused records back to pending once the user fixed the
// cause (a container too small for them, a missing privilege …). They never block the others.
import type { ContainerTrouble, StackRefused, StackStats } from "#host/api/stack.ts";
import { fmt } from "./format.ts";
import { retryRefused, useStack } from "./stackStore.ts";

const answer = (r: StackRefused["refusal"]) => `HTTP ${r.status}${r.rsc ? ` · RSC ${r.rsc}` : ""}`;

function ContainerRow({ c, latest, busy }: { c: ContainerTrouble; latest: StackRefused | undefined; busy: boolean }) {
  return (
    <tr data-testid={`refused-container-${c.container}`}>
      <td className="mono">{c.container}</td>
      <td className="num">{c.refused ? fmt.int(c.refused) : "–"}</td>
      <td className="stack-refused-answer">
        {latest ? (
          <>
            <span className="badge">{answer(latest.refusal)}</span> {latest.refusal.reason}
          </>
        ) : c.refused ? (
          <span className="faint">older than the newest 100 refusals</span>
        ) : null}
        {c.failing ? (
          <div className="stack-refused-failing" data-testid={`failing-${c.container}`}>
            Backing off (attempt {c.failing.attempt}, next{" "}
            {c.failing.nextRetryAt > Date.now() ? `at ${fmt.time(c.failing.nextRetryAt)}` : "now"}):{" "}
            {c.failing.lastError}
          </div>
        ) : null}
      </td>
      <td className="stack-refused-action">
        {c.refused ? (
          <button
            type="button"
            className="btn small"
            data-testid={`retry-container-${c.container}`}
            disabled={busy}
            onClick={() => void retryRefused(c.container)}
          >
            Retry
          </button>
        ) : null}
      </td>
    </tr>
  );
}

export function RefusedCard({ stats }: { stats: StackStats | null }) {
  const refused = useStack((s) => s.refused);
  const retrying = useStack((s) => s.retrying);
  const note = useStack((s) => s.retryNote);
  const containers = stats?.containers ?? [];
  const total = stats?.refused ?? 0;
  const latest = new Map<string, StackRefused>();
  for (const r of refused) if (!latest.has(r.refusal.container)) latest.set(r.refusal.container, r);
  return (
    <section
      className="card stack-card stack-wide"
      data-testid="stack-refused"
      data-count={total}
      aria-label="Refused by the CSE"
    >
      <header className="stack-card-head">
        <h2 className="section-title">Refused by the CSE</h2>
        {total ? <span className="badge over">{fmt.int(total)}</span> : null}
        <span className="spacer" />
        <span className="faint stack-small">kept with the CSE&apos;s answer until you retry them</span>
        <button
          type="button"
          className="btn small"
          data-testid="retry-all"
          disabled={total === 0 || retrying !== null}
          onClick={() => void retryRefused()}
        >
          {retrying === "" ? "Retrying…" : "Retry all"}
        </button>
      </header>
      {note ? (
        <p
          className={`stack-note${note.ok ? "" : " stack-refused-problem"}`}
          role={note.ok ? "status" : "alert"}
          data-testid="retry-note"
        >
          {note.text}
        </p>
      ) : null}
      {containers.length === 0 ? (
        <p className="empty" data-testid="stack-refused-empty">
          <strong>Nothing refused</strong>A record the CSE refuses for good (too large for its container, no privilege,
          a bad request) waits here with the CSE&apos;s answer until you fix the cause and retry it; the other
          containers keep flowing meanwhile.
        </p>
      ) : (
        <>
          <div className="stack-table-wrap">
            <table className="stack-table">
              <thead>
                <tr>
                  <th>Container</th>
                  <th className="num">Refused</th>
                  <th>The CSE&apos;s answer</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {containers.map((c) => (
                  <ContainerRow key={c.container} c={c} latest={latest.get(c.container)} busy={retrying !== null} />
                ))}
              </tbody>
            </table>
          </div>
          {refused.length ? (
            <details className="stack-refused-records">
              <summary>
                The newest {Math.min(refused.length, 20)} refused record{refused.length === 1 ? "" : "s"}
              </summary>
              <table className="stack-table">
                <thead>
                  <tr>
                    <th>Received</th>
                    <th>Message id</th>
                    <th>Container / name</th>
                    <th>Answer</th>
                    <th>Refused</th>
                  </tr>
                </thead>
                <tbody>
                  {refused.slice(0, 20).map((r) => (
                    <tr key={`${r.buffer}:${r.seq}`} data-testid={`refused-${r.messageId}`}>
                      <td className="num">{fmt.time(r.receivedAt)}</td>
                      <td className="mono stack-ellipsis" title={r.messageId}>
                        {r.messageId}
                      </td>
                      <td className="mono stack-ellipsis" title={`${r.refusal.container}/${r.refusal.rn}`}>
                        {r.refusal.container}/{r.refusal.rn}
                      </td>
                      <td>{answer(r.refusal)}</td>
                      <td className="num">{fmt.time(r.refusal.at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          ) : null}
        </>
      )}
    </section>
  );
}
