// Form controls for the inspector. Numbers keep the half-typed text locally and commit only what parses, so the
// computation always runs on the last valid layout while the field shows what is wrong.
import { useEffect, useId, useState, type ReactNode } from "react";
import type { FieldIssue } from "../../state/issues.ts";
import { LengthNotice, useLengthLimit } from "../common/LengthLimit.tsx";

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

export type NumberCheck = (n: number) => string | null;

export interface NumberProps {
  label: string;
  value: number | undefined;
  /** called only with a number that passed the checks (or undefined when optional and cleared) */
  onCommit(v: number | undefined): void;
  optional?: boolean;
  integer?: boolean;
  check?: NumberCheck;
  issues?: readonly FieldIssue[];
  testId?: string;
  placeholder?: string;
  help?: string;
  /** render without the label row (inside a pair) */
  bare?: boolean;
}

function parseNumber(text: string): number | null {
  const t = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

export function NumberField(p: NumberProps) {
  const id = useId();
  const [text, setText] = useState(p.value === undefined ? "" : String(p.value));
  const [local, setLocal] = useState<string | null>(null);

  // follow the layout when it changes from elsewhere (undo, type switch) unless the text already means it
  useEffect(() => {
    const parsed = text.trim() === "" ? undefined : parseNumber(text);
    if (parsed !== p.value) {
      setText(p.value === undefined ? "" : String(p.value));
      setLocal(null);
    }
    // not on `text`: every keystroke that does not parse ("abc", "") would be replaced by the layout's value
    // at once, so a wrong entry could never be seen with its error next to it
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [p.value]);

  const change = (t: string) => {
    setText(t);
    if (t.trim() === "") {
      if (p.optional) {
        setLocal(null);
        if (p.value !== undefined) p.onCommit(undefined);
      } else setLocal("Required");
      return;
    }
    const n = parseNumber(t);
    if (n === null) return setLocal("Not a number");
    if (p.integer && !Number.isInteger(n)) return setLocal("Must be a whole number");
    const why = p.check?.(n) ?? null;
    if (why) return setLocal(why);
    setLocal(null);
    if (n !== p.value) p.onCommit(n);
  };

  const invalid = !!local || !!p.issues?.length;
  const input = (
    <div className="control-wrap">
      <input
        id={id}
        className={`input num${invalid ? " invalid" : ""}`}
        inputMode="decimal"
        value={text}
        placeholder={p.placeholder}
        data-testid={p.testId}
        aria-invalid={invalid}
        aria-label={p.bare ? p.label : undefined}
        spellCheck={false}
        onChange={(e) => change(e.target.value)}
        onBlur={() => {
          // leaving a half-typed number: show what the layout holds again
          if (local) {
            setText(p.value === undefined ? "" : String(p.value));
            setLocal(null);
          }
        }}
      />
      <Messages issues={p.issues} local={local} />
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
