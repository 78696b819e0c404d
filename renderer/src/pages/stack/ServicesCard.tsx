// The processes behind the stack (state, pid, health, restarts) and their captured output.
import { useEffect, useRef, useState } from "react";
import type { LogLine, StackStatus } from "#host/api/stack.ts";
import { fmt } from "./format.ts";

const NAMES = { cse: "Embedded CSE", decoder: "Decoder" } as const;

export function ServicesCard({ status }: { status: StackStatus }) {
  return (
    <section className="card stack-card" data-testid="stack-services" aria-label="Services">
      <header className="stack-card-head">
        <h2 className="section-title">Services</h2>
        <span className="spacer" />
        <span className="faint stack-small">up {fmt.since(status.startedAt)}</span>
      </header>
      {status.services.length === 0 ? (
        <p className="stack-note">
          Started by <code>satpayload stack up</code> (pid {status.ownerPid}); its processes and logs are in that
          terminal and in <code>{status.dir}/logs</code>.
        </p>
      ) : (
        <ul className="stack-services">
          {status.services.map((s) => {
            const bad = s.state === "failed" || s.healthy === false;
            const tone = bad ? "over" : s.state === "running" ? "good" : "attention";
            return (
              <li key={s.name} data-testid={`service-${s.name}`} data-state={s.state}>
                <span className={`stack-dot ${tone}`} aria-hidden="true" />
                <strong>{NAMES[s.name]}</strong>
                <span className="muted">
                  {s.state === "running"
                    ? s.healthy === false
                      ? "not answering"
                      : s.healthy
                        ? "healthy"
                        : "running"
                    : s.state}
                </span>
                <span className="spacer" />
                <span className="faint mono">{s.pid ? `pid ${s.pid}` : ""}</span>
                {s.restarts ? (
                  <span
                    className="badge"
                    title={s.lastExit ?? undefined}
                  >{`${s.restarts} restart${s.restarts === 1 ? "" : "s"}`}</span>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {status.options?.cseUrl ? <p className="stack-note">Forwarding to {status.options.cseUrl}</p> : null}
      {status.options &&
      !status.options.cseUrl &&
      status.services.length > 0 &&
      !status.services.some((s) => s.name === "cse") ? (
        <p className="stack-note" data-testid="stack-cse-in-decoder">
          The embedded CSE runs inside the decoder&apos;s process: a record and its contentInstance are stored in one
          transaction.
        </p>
      ) : null}
    </section>
  );
}

export function LogsCard({ lines }: { lines: LogLine[] }) {
  const [filter, setFilter] = useState<"all" | LogLine["service"]>("all");
  const box = useRef<HTMLPreElement>(null);
  const shown = filter === "all" ? lines : lines.filter((l) => l.service === filter);
  useEffect(() => {
    const el = box.current;
    // follow the tail unless the user scrolled up to read
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 40) el.scrollTop = el.scrollHeight;
  }, [shown.length]);
  return (
    <section className="card stack-card" data-testid="stack-logs" aria-label="Logs">
      <header className="stack-card-head">
        <h2 className="section-title">Logs</h2>
        <span className="spacer" />
        <div className="segmented" role="group" aria-label="Show logs of">
          {(["all", "decoder", "cse", "supervisor"] as const).map((f) => (
            <button key={f} type="button" aria-pressed={filter === f} onClick={() => setFilter(f)}>
              {f === "all" ? "All" : f === "cse" ? "CSE" : f[0]!.toUpperCase() + f.slice(1)}
            </button>
          ))}
        </div>
      </header>
      {shown.length === 0 ? (
        <p className="empty">No output yet.</p>
      ) : (
        <pre className="stack-log mono" ref={box}>
          {shown.map((l, i) => (
            <span
              key={i}
              className={
                /\b(fail|error|refused|unexpected)/i.test(l.text) ? "err" : l.stream === "event" ? "event" : undefined
              }
            >
              <span className="faint">{l.at.slice(11, 19)}</span> <span className="stack-log-svc">{l.service}</span>{" "}
              {l.text}
              {"\n"}
            </span>
          ))}
        </pre>
      )}
    </section>
  );
}
