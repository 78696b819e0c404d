// Form controls of the decide pages: a number field that only commits valid values, and a labelled row.
import { useEffect, useState, type ReactNode } from "react";

interface NumberInputProps {
  value: number | undefined;
  onCommit(v: number | undefined): void;
  min?: number;
  max?: number;
  integer?: boolean;
  /** an empty field commits undefined instead of being invalid */
  optional?: boolean;
  testId?: string;
  label: string;
  width?: number;
}

/** Keeps the text being typed; commits when it parses inside the bounds, marks it invalid otherwise. */
export function NumberInput({ value, onCommit, min, max, integer, optional, testId, label, width }: NumberInputProps) {
  const shown = value === undefined ? "" : String(value);
  const [text, setText] = useState(shown);
  useEffect(() => setText((t) => (Number(t) === value && t.trim() !== "" ? t : shown)), [value, shown]);
  const parse = (t: string): { ok: boolean; v: number | undefined } => {
    const s = t.trim();
    if (s === "") return { ok: optional === true, v: undefined };
    const v = Number(s);
    const ok =
      Number.isFinite(v) &&
      (!integer || Number.isInteger(v)) &&
      (min === undefined || v >= min) &&
      (max === undefined || v <= max);
    return { ok, v };
  };
  const bad = !parse(text).ok;
  const why = bad
    ? `${integer ? "a whole number" : "a number"}${min !== undefined ? ` ≥ ${min}` : ""}${max !== undefined ? ` ≤ ${max}` : ""}`
    : undefined;
  return (
    <input
      className={`input num${bad ? " invalid" : ""}`}
      inputMode="decimal"
      aria-label={label}
      aria-invalid={bad}
      title={why}
      data-testid={testId}
      value={text}
      style={width ? { width } : undefined}
      onChange={(e) => {
        setText(e.target.value);
        const p = parse(e.target.value);
        if (p.ok && p.v !== value) onCommit(p.v);
      }}
    />
  );
}

export function Row({ label, children, hint }: { label: string; children: ReactNode; hint?: ReactNode }) {
  return (
    <div className="decide-row">
      <span className="decide-label">{label}</span>
      <div className="decide-control">{children}</div>
      {hint ? <div className="decide-hint">{hint}</div> : null}
    </div>
  );
}
