// Pieces every Load Test card uses: the card frame, a busy-aware button, an error line, number formats.
import type { ReactNode } from "react";
import { useLoadTest } from "./loadTestStore.ts";

export function Card({
  title,
  testId,
  actions,
  children,
  className,
}: {
  title: string;
  testId: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`card lt-card${className ? ` ${className}` : ""}`} data-testid={testId} aria-label={title}>
      <header className="lt-card-head">
        <h2 className="section-title">{title}</h2>
        <span className="spacer" />
        {actions}
      </header>
      <div className="lt-card-body">{children}</div>
    </section>
  );
}

export function ActionButton({
  action,
  onClick,
  children,
  primary,
  disabled,
  testId,
  title,
}: {
  action: string;
  onClick: () => void;
  children: ReactNode;
  primary?: boolean;
  disabled?: boolean;
  testId?: string;
  title?: string;
}) {
  const busy = useLoadTest((s) => !!s.busy[action]);
  return (
    <button
      type="button"
      className={`btn small${primary ? " primary" : ""}`}
      data-testid={testId}
      disabled={disabled || busy}
      aria-busy={busy}
      title={title}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

export function ErrorLine({ action }: { action: string }) {
  const msg = useLoadTest((s) => s.errors[action] ?? null);
  if (!msg) return null;
  return (
    <p className="lt-error" role="alert" data-testid={`lt-error-${action}`}>
      {msg}
    </p>
  );
}

export const fmt = {
  rps: (x: number | null | undefined) => (x === null || x === undefined ? "–" : x.toFixed(1)),
  ms: (x: number | null | undefined) =>
    x === null || x === undefined ? "–" : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`,
  pct: (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? "–" : `${x.toFixed(digits)} %`),
  int: (x: number | null | undefined) => (x === null || x === undefined ? "–" : Math.round(x).toLocaleString("en-US")),
  when: (iso: string) => {
    const d = new Date(iso);
    return `${d.toLocaleDateString(undefined, { month: "short", day: "numeric" })} ${d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" })}`;
  },
};

/** failures in red only when there were any */
export function FailureCell({ percent, testId }: { percent: number | null; testId?: string }) {
  return (
    <span className={percent ? "over-text" : undefined} data-testid={testId}>
      {fmt.pct(percent)}
    </span>
  );
}

/** A run the load generator limited has no valid Figure of Merit: its numbers describe the client. */
export function FomValue({ fom, valid, testId }: { fom: number | null; valid: boolean | null; testId?: string }) {
  if (valid === false)
    return (
      <span
        className="over-text"
        data-testid={testId}
        data-valid="false"
        title={fom === null ? undefined : `computed ${fmt.int(fom)}, but the load generator limited this run`}
      >
        not valid
      </span>
    );
  return (
    <span data-testid={testId} data-valid="true">
      {fmt.int(fom)}
    </span>
  );
}
