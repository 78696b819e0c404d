// Pieces every Load Test card uses: the ui kit's card and busy button bound to this page (its CSS, its store's busy
// flags), an error line, number formats.
import { useLoadTest } from "./loadTestStore.ts";
import { BusyButton } from "../../ui/BusyButton.tsx";
import { Card as UiCard } from "../../ui/Card.tsx";

export function Card(card: Omit<Parameters<typeof UiCard>[0], "kind">) {
  return <UiCard kind="lt" {...card} />;
}

export function ActionButton({
  action,
  ...button
}: Omit<Parameters<typeof BusyButton>[0], "busy" | "spinnerClass"> & { action: string }) {
  const busy = useLoadTest((s) => !!s.busy[action]);
  return <BusyButton busy={busy} {...button} />;
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
