// Small pieces every bench card uses: the ui kit's card and busy button bound to the bench (its CSS, its store's busy
// flags), an error line, key/value rows.
import type { ReactNode } from "react";
import { useBench } from "./benchStore.ts";
import { BusyButton } from "../../ui/BusyButton.tsx";
import { Card as UiCard } from "../../ui/Card.tsx";

type ActionProps = Omit<Parameters<typeof BusyButton>[0], "busy" | "spinnerClass"> & { action: string };

export function Card({ wide, ...card }: Omit<Parameters<typeof UiCard>[0], "kind" | "className"> & { wide?: boolean }) {
  return <UiCard kind="bench" className={wide ? "wide" : undefined} {...card} />;
}

/** A button that shows its action is running and cannot be pressed twice meanwhile. */
export function ActionButton({ action, ...button }: ActionProps) {
  const busy = useBench((s) => !!s.busy[action]);
  return <BusyButton busy={busy} spinnerClass="bench-spinner" {...button} />;
}

export function ErrorLine({ action }: { action: string | string[] }) {
  const keys = Array.isArray(action) ? action : [action];
  const msg = useBench((s) => keys.map((k) => s.errors[k]).find((e) => !!e) ?? null);
  if (!msg) return null;
  return (
    <p className="bench-error" role="alert" data-testid={`error-${keys[0]}`}>
      {msg}
    </p>
  );
}

export function FlashLine({ name }: { name: string }) {
  const text = useBench((s) => s.flash[name]);
  if (!text) return null;
  return (
    <p className="bench-flash" role="status" data-testid={`flash-${name}`}>
      {text}
    </p>
  );
}

export function KV({ rows }: { rows: [string, ReactNode, string?][] }) {
  return (
    <dl className="bench-kv">
      {rows.map(([k, v, id]) => (
        <div key={k} className="bench-kv-row">
          <dt>{k}</dt>
          <dd className="mono" data-testid={id}>
            {v}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function Empty({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p className="bench-empty" data-testid={testId}>
      {children}
    </p>
  );
}

/** "in 2 min 5 s" */
/** Seconds as "1 h 29 min 12 s": down to the second, so a countdown visibly counts. */
export function duration(s: number): string {
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min ${s % 60} s`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

export function clock(iso: string): string {
  const d = new Date(iso);
  return `${d.toLocaleTimeString([], { hour12: false })}.${String(d.getMilliseconds()).padStart(3, "0")}`;
}
