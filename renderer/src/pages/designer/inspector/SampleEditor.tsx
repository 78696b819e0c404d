// How the designer draws this field's values for the size statistics (constant, uniform, normal, choice, walk, …).
import { useId } from "react";
import { type Field, LIMITS, type SampleModel, type ScalarType } from "#codecs";
import { Messages, NumberField, Row, SelectField, TextField } from "./controls.tsx";
import { clean, patchField } from "./edit.ts";
import { useHeldText } from "./heldText.ts";
import { issuesAt, type FieldIssue } from "../../../state/issues.ts";

type Kind = SampleModel["kind"] | "default";

function elementType(f: Field): ScalarType | null {
  if (f.type.kind === "group") return null;
  return f.type.kind === "array" ? f.type.of : f.type;
}

function kindsFor(t: ScalarType, isArray: boolean): Kind[] {
  const numeric = t.kind === "int" || t.kind === "float" || t.kind === "fixed" || t.kind === "timestamp";
  const out: Kind[] = ["default", "constant", "choice"];
  if (numeric) out.push("uniform", "normal", "walk", "counter");
  if (t.kind === "string") out.push("template");
  if (isArray) out.push("elements");
  return out;
}

const LABELS: Record<Kind, string> = {
  default: "Default (from the type)",
  constant: "Constant",
  uniform: "Uniform",
  normal: "Normal",
  choice: "Choice",
  walk: "Random walk",
  // series models of a batch (issue #27); b-core added the labels only, so the renderer type-checks
  randomWalk: "Random walk (max rate)",
  drift: "Smooth drift",
  hold: "Rarely changes",
  counter: "Counter",
  template: "Template",
  elements: "Per element",
};

/** Text → a value of the element type, or an error message. */
export function parseValue(t: ScalarType, text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const s = text.trim();
  switch (t.kind) {
    case "int":
    case "float":
    case "fixed":
    case "timestamp": {
      const n = Number(s);
      return s !== "" && Number.isFinite(n)
        ? { ok: true, value: n }
        : { ok: false, error: `"${s}" is not a number; write digits, e.g. 12 or -0.5` };
    }
    case "bool":
      if (["true", "1"].includes(s)) return { ok: true, value: true };
      if (["false", "0"].includes(s)) return { ok: true, value: false };
      return { ok: false, error: `"${s}" is neither true nor false (write true, false, 1 or 0)` };
    case "enum":
      return t.values.some((v) => v.name === s)
        ? { ok: true, value: s }
        : { ok: false, error: `"${s}" is not one of ${t.values.map((v) => v.name).join(", ")}` };
    case "bytes": {
      const hex = s.replace(/\s+/g, "");
      if (!/^([0-9a-fA-F]{2})*$/.test(hex)) return { ok: false, error: "Bytes are written as hex (e.g. 01ff)" };
      return {
        ok: true,
        value: Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)),
      };
    }
    case "string":
      return { ok: true, value: text };
  }
}

function showValue(v: unknown): string {
  if (Array.isArray(v)) return v.map((b) => Number(b).toString(16).padStart(2, "0")).join("");
  return v === undefined || v === null ? "" : String(v);
}

/**
 * A text control whose content is parsed on every keystroke: what parses reaches the layout, what does not
 * stays with its message and is held (heldText.ts), so the header says "Not saved" until it is fixed.
 */
function ParsedText({
  label,
  initial,
  parse,
  commit,
  testId,
  help,
  issues,
}: {
  label: string;
  initial: string;
  parse(text: string): { ok: true; value: unknown } | { ok: false; error: string };
  commit(v: unknown): void;
  testId: string;
  help?: string;
  issues?: readonly FieldIssue[];
}) {
  const id = useId();
  // "1,2" typed means the same as the "1, 2" the layout shows: the text is left as typed
  const same = (t: string) => {
    const [a, b] = [parse(t), parse(initial)];
    return a.ok && b.ok && JSON.stringify(a.value) === JSON.stringify(b.value);
  };
  const held = useHeldText(testId, initial, same);
  const invalid = !!held.problem || !!issues?.length;
  return (
    <Row label={label} htmlFor={id} help={help}>
      <input
        id={id}
        className={`input${invalid ? " invalid" : ""}`}
        value={held.text}
        data-testid={testId}
        aria-invalid={invalid}
        spellCheck={false}
        onChange={(e) => {
          const r = parse(e.target.value);
          if (!r.ok) return held.hold(e.target.value, r.error);
          held.accept(e.target.value);
          commit(r.value);
        }}
        onKeyDown={held.onKeyDown}
      />
      <Messages local={held.problem} issues={issues} />
    </Row>
  );
}

function defaultsFor(kind: Kind, t: ScalarType): SampleModel | undefined {
  const lo = "min" in t && typeof t.min === "number" ? t.min : 0;
  const hi = "max" in t && typeof t.max === "number" ? t.max : 100;
  switch (kind) {
    case "default":
      return undefined;
    case "constant":
      return {
        kind,
        value:
          t.kind === "string"
            ? ""
            : t.kind === "bool"
              ? false
              : t.kind === "enum"
                ? t.values[0]!.name
                : t.kind === "bytes"
                  ? []
                  : lo,
      };
    case "uniform":
      return { kind, min: lo, max: hi };
    case "normal":
      return { kind, mean: (lo + hi) / 2, sd: (hi - lo) / 6 || 1 };
    case "choice":
      return {
        kind,
        values:
          t.kind === "enum"
            ? t.values.map((v) => v.name)
            : t.kind === "bool"
              ? [false, true]
              : t.kind === "string"
                ? ["A", "B"]
                : [lo, hi],
      };
    case "walk":
      return {
        kind,
        start: (lo + hi) / 2,
        stepMin: -1,
        stepMax: 1,
        ...("min" in t && t.min !== undefined ? { min: lo } : {}),
        ...("max" in t && t.max !== undefined ? { max: hi } : {}),
      };
    case "counter":
      return { kind, start: lo, step: 1 };
    case "template":
      return { kind, template: "{alpha:2}{digits:4}" };
    case "elements":
      return { kind, each: [{ kind: "uniform", min: lo, max: hi }] };
  }
}

export function SampleEditor({ field, issues }: { field: Field; issues: readonly FieldIssue[] | undefined }) {
  const t = elementType(field);
  if (!t) return null;
  const m = field.sample;
  const kind: Kind = m?.kind ?? "default";
  const set = (next: SampleModel | undefined, control: string) =>
    patchField(field.id, `sample.${control}`, (f) => {
      const out = { ...f, sample: next };
      if (next === undefined) delete out.sample;
      return out;
    });
  const is = (p: string) => issuesAt(issues, `sample.${p}`);
  const num = (
    label: string,
    key: string,
    value: number | undefined,
    optional: boolean,
    patch: (v: number | undefined) => SampleModel,
    extra?: { help?: string; placeholder?: string },
  ) => (
    <NumberField
      label={label}
      value={value}
      optional={optional}
      help={extra?.help}
      placeholder={extra?.placeholder ?? (optional ? "none" : undefined)}
      issues={is(key)}
      testId={`insp-sample-${key}`}
      onCommit={(v) => set(patch(v), key)}
    />
  );
  const decimals = (mm: Extract<SampleModel, { decimals?: number }>) =>
    num("Decimals", "decimals", mm.decimals, true, (v) => clean({ ...mm, decimals: v }) as SampleModel, {
      placeholder: "no rounding",
    });

  return (
    <section className="inspector-section" aria-label="Sample model">
      <h3>Sample model</h3>
      <SelectField<Kind>
        label="Values"
        value={kind}
        options={kindsFor(t, field.type.kind === "array").map((k) => ({ value: k, label: LABELS[k] }))}
        testId="insp-sample-kind"
        issues={issuesAt(issues, "sample")}
        help="How the designer draws values for the size statistics."
        onChange={(k) => set(defaultsFor(k, t), "kind")}
      />
      {m?.kind === "constant" && (
        <ParsedText
          label="Value"
          initial={showValue(m.value)}
          parse={(s) => parseValue(t, s)}
          commit={(value) => set({ kind: "constant", value }, "value")}
          testId="insp-sample-value"
          issues={is("value")}
        />
      )}
      {m?.kind === "uniform" && (
        <>
          {num("Minimum", "min", m.min, false, (v) => ({ ...m, min: v! }))}
          {num("Maximum", "max", m.max, false, (v) => ({ ...m, max: v! }))}
          {decimals(m)}
        </>
      )}
      {m?.kind === "normal" && (
        <>
          {num("Mean", "mean", m.mean, false, (v) => ({ ...m, mean: v! }))}
          {num("Std dev", "sd", m.sd, false, (v) => ({ ...m, sd: v! }))}
          {num("Clamp min", "min", m.min, true, (v) => clean({ ...m, min: v }))}
          {num("Clamp max", "max", m.max, true, (v) => clean({ ...m, max: v }))}
          {decimals(m)}
        </>
      )}
      {m?.kind === "choice" && (
        <>
          <ParsedText
            label="Choices"
            initial={m.values.map(showValue).join(", ")}
            help="Comma-separated"
            testId="insp-sample-values"
            issues={issuesAt(issues, "sample.values", { below: true })}
            parse={(s) => {
              const parts = s.split(",").map((p) => p.trim());
              if (!parts.length || (parts.length === 1 && parts[0] === ""))
                return { ok: false, error: "Give at least one value, comma-separated" };
              const out: unknown[] = [];
              for (const p of parts) {
                const r = parseValue(t, p);
                if (!r.ok) return r;
                out.push(r.value);
              }
              return { ok: true, value: out };
            }}
            commit={(values) =>
              set(
                clean({
                  ...m,
                  values: values as unknown[],
                  weights: m.weights && m.weights.length === (values as unknown[]).length ? m.weights : undefined,
                }),
                "values",
              )
            }
          />
          <ParsedText
            label="Weights"
            initial={m.weights?.join(", ") ?? ""}
            help="Optional, one per choice"
            testId="insp-sample-weights"
            issues={is("weights")}
            parse={(s) => {
              if (s.trim() === "") return { ok: true, value: undefined };
              const w = s.split(",").map((p) => Number(p.trim()));
              if (w.some((x) => !Number.isFinite(x) || x < 0))
                return { ok: false, error: "Weights are numbers of 0 or more, comma-separated" };
              if (w.length !== m.values.length)
                return { ok: false, error: `Give ${m.values.length} weights, one per choice` };
              return { ok: true, value: w };
            }}
            commit={(weights) => set(clean({ ...m, weights: weights as number[] | undefined }), "weights")}
          />
        </>
      )}
      {m?.kind === "walk" && (
        <>
          {num("Start", "start", m.start, false, (v) => ({ ...m, start: v! }))}
          <Row label="Step">
            <div className="form-pair">
              <NumberField
                bare
                label="Step min"
                value={m.stepMin}
                issues={is("stepMin")}
                testId="insp-sample-stepMin"
                onCommit={(v) => set({ ...m, stepMin: v! }, "stepMin")}
              />
              <NumberField
                bare
                label="Step max"
                value={m.stepMax}
                issues={is("stepMax")}
                testId="insp-sample-stepMax"
                onCommit={(v) => set({ ...m, stepMax: v! }, "stepMax")}
              />
            </div>
          </Row>
          {num("Bounce min", "min", m.min, true, (v) => clean({ ...m, min: v }))}
          {num("Bounce max", "max", m.max, true, (v) => clean({ ...m, max: v }))}
          {decimals(m)}
        </>
      )}
      {m?.kind === "counter" && (
        <>
          {num("Start", "start", m.start, false, (v) => ({ ...m, start: v! }))}
          {num("Step", "step", m.step, false, (v) => ({ ...m, step: v! }))}
          {num("Wrap after", "wrap", m.wrap, true, (v) => clean({ ...m, wrap: v }))}
        </>
      )}
      {m?.kind === "template" && (
        <TextField
          label="Template"
          value={m.template}
          mono
          maxLength={LIMITS.template.max}
          help="Literal text with {int:A:B[:pad]} {digits:N} {hex:N} {alpha:N}"
          issues={is("template")}
          testId="insp-sample-template"
          onChange={(v) => set({ kind: "template", template: v }, "template")}
        />
      )}
      {m?.kind === "elements" && (
        <Row label="Elements" top>
          <span className="field-help mono">{m.each.map((e) => e.kind).join(", ")}</span>
          <span className="field-help">
            One model per element (the last repeats); edit the layout file for per-element detail.
          </span>
        </Row>
      )}
    </section>
  );
}
