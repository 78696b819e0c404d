// Form controls for the inspector. A number goes to the layout as soon as it parses, whatever its value: the
// layout's validation judges it and its message shows under the control (the header says "Not saved" until
// it is fixed), while the sizes stay on the last valid layout. Text that is not a number is held with its
// message (heldText.ts) rather than dropped.
import { useId, type ReactNode } from "react";
import { useHeldText } from "./heldText.ts";
import type { FieldIssue } from "../../../state/issues.ts";
import { LengthNotice, useLengthLimit } from "../LengthLimit.tsx";

export function Messages({ issues, local }: { issues?: readonly FieldIssue[]; local?: string | null }) {
  if (!local && !issues?.length) return null;
  return (
    <>
      {local && (
        <span className="field-msg" role="alert">
          {local}
        </span>
      )}
      {issues?.map((i, n) => (
        <span key={n} className="field-msg" data-testid="field-issue">
          {i.message}
        </span>
      ))}
    </>
  );
}

export function Row({
  label,
  children,
  htmlFor,
  top,
  help,
}: {
  label: string;
  children: ReactNode;
  htmlFor?: string;
  top?: boolean;
  help?: string;
}) {
  return (
    <div className={`form-row${top ? " top" : ""}`}>
      {htmlFor ? <label htmlFor={htmlFor}>{label}</label> : <span className="form-label">{label}</span>}
      <div className="control-wrap">
        {children}
        {help && <span className="field-help">{help}</span>}
      </div>
    </div>
  );
}

interface TextProps {
  label: string;
  value: string | undefined;
  onChange(v: string): void;
  issues?: readonly FieldIssue[];
  testId?: string;
  placeholder?: string;
  help?: string;
  multiline?: boolean;
  maxLength?: number;
  mono?: boolean;
}

export function TextField(p: TextProps) {
  const id = useId();
  const limit = useLengthLimit(p.maxLength);
  const invalid = !!p.issues?.length;
  const cls = `${p.multiline ? "textarea" : "input"}${invalid ? " invalid" : ""}${p.mono ? " mono" : ""}`;
  const change = (v: string) => {
    limit.seen(v);
    p.onChange(v);
  };
  return (
    <Row label={p.label} htmlFor={id} top={p.multiline} help={p.help}>
      {p.multiline ? (
        <textarea
          id={id}
          className={cls}
          value={p.value ?? ""}
          placeholder={p.placeholder}
          maxLength={p.maxLength}
          data-testid={p.testId}
          aria-invalid={invalid}
          onPaste={limit.onPaste}
          onChange={(e) => change(e.target.value)}
        />
      ) : (
        <input
          id={id}
          className={cls}
          value={p.value ?? ""}
          placeholder={p.placeholder}
          maxLength={p.maxLength}
          data-testid={p.testId}
          aria-invalid={invalid}
          spellCheck={false}
          onPaste={limit.onPaste}
          onChange={(e) => change(e.target.value)}
        />
      )}
      <LengthNotice length={(p.value ?? "").length} maxLength={p.maxLength} cutFrom={limit.cutFrom} testId={p.testId} />
      <Messages issues={p.issues} />
    </Row>
  );
}

export interface NumberProps {
  label: string;
  value: number | undefined;
  /**
   * Called with every number typed (or undefined when optional and cleared): the layout's validation judges
   * ranges, whole numbers and limits, and its message shows under the control, so no value is dropped here.
   */
  onCommit(v: number | undefined): void;
  optional?: boolean;
  issues?: readonly FieldIssue[];
  /** also names the control for the text held while it is not a number (pendingInputs.ts) */
  testId?: string;
  placeholder?: string;
  help?: string;
  /** render without the label row (inside a pair) */
  bare?: boolean;
}

type Parsed = { ok: true; n: number } | { ok: false; why: string };

function parseNumber(text: string): Parsed {
  const t = text.trim();
  if (/^[+-]?\d+,\d+$/.test(t))
    return { ok: false, why: `"${t}" is not a number; write decimals with a point (${t.replace(",", ".")}).` };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t))
    return { ok: false, why: `"${t}" is not a number; write digits, e.g. 12, -0.5 or 1e3.` };
  const n = Number(t);
  return Number.isFinite(n) ? { ok: true, n } : { ok: false, why: `"${t}" is too large to be a number.` };
}

const numberOf = (text: string): number | undefined | null => {
  if (text.trim() === "") return undefined;
  const r = parseNumber(text);
  return r.ok ? r.n : null;
};

export function NumberField(p: NumberProps) {
  const id = useId();
  const held = useHeldText(p.testId, p.value === undefined ? "" : String(p.value), (t) => numberOf(t) === p.value);

  const change = (t: string) => {
    if (t.trim() === "") {
      if (!p.optional) return held.hold(t, "Empty: this setting needs a number.");
      held.accept(t);
      if (p.value !== undefined) p.onCommit(undefined);
      return;
    }
    const r = parseNumber(t);
    if (!r.ok) return held.hold(t, r.why);
    held.accept(t);
    if (r.n !== p.value) p.onCommit(r.n);
  };

  const invalid = !!held.problem || !!p.issues?.length;
  const input = (
    <div className="control-wrap">
      <input
        id={id}
        className={`input num${invalid ? " invalid" : ""}`}
        inputMode="decimal"
        value={held.text}
        placeholder={p.placeholder}
        data-testid={p.testId}
        aria-invalid={invalid}
        aria-label={p.bare ? p.label : undefined}
        spellCheck={false}
        onChange={(e) => change(e.target.value)}
        onKeyDown={held.onKeyDown}
      />
      <Messages issues={p.issues} local={held.problem} />
    </div>
  );
  if (p.bare) return input;
  return (
    <Row label={p.label} htmlFor={id} help={p.help}>
      {input}
    </Row>
  );
}

interface SelectProps<T extends string> {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange(v: T): void;
  issues?: readonly FieldIssue[];
  testId?: string;
  help?: string;
}

export function SelectField<T extends string>(p: SelectProps<T>) {
  const id = useId();
  return (
    <Row label={p.label} htmlFor={id} help={p.help}>
      <select
        id={id}
        className={`select${p.issues?.length ? " invalid" : ""}`}
        value={p.value}
        data-testid={p.testId}
        onChange={(e) => p.onChange(e.target.value as T)}
      >
        {p.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Messages issues={p.issues} />
    </Row>
  );
}

export function CheckField({
  label,
  text,
  checked,
  onChange,
  testId,
  help,
}: {
  label: string;
  text: string;
  checked: boolean;
  onChange(v: boolean): void;
  testId?: string;
  help?: string;
}) {
  return (
    <Row label={label} help={help}>
      <label className="check">
        <input type="checkbox" checked={checked} data-testid={testId} onChange={(e) => onChange(e.target.checked)} />
        {text}
      </label>
    </Row>
  );
}
