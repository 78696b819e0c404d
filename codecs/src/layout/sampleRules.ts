// The values a sample model names (a constant, the choices) must be values of the field's type, and a
// choice needs one weight per value: a file that breaks this would otherwise draw values no codec takes.
import { count, showValue } from "./messages.ts";
import type { Field, SampleModel, ScalarType } from "./schema.ts";

export interface RuleSink {
  label(path: string): string;
  add(path: string, message: string): void;
}

/** Why `v` is not a value of `t`, as the end of "<label> is <v>; …", or null when it is one. */
function notAValue(t: ScalarType, v: unknown): string | null {
  switch (t.kind) {
    case "int":
    case "float":
    case "fixed":
    case "timestamp":
      return typeof v === "number" && Number.isFinite(v) ? null : "it must be a number";
    case "bool":
      return typeof v === "boolean" || v === 0 || v === 1 ? null : "it must be true or false";
    case "enum": {
      const ok = t.values.some((e) => e.name === v || e.value === v);
      return ok ? null : `allowed: ${t.values.map((e) => showValue(e.name)).join(", ")}`;
    }
    case "string":
      return typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? null : "it must be text";
    case "bytes": {
      const ok = Array.isArray(v) && v.every((b) => Number.isInteger(b) && b >= 0 && b <= 255);
      return ok ? null : "it must be a list of byte values 0 … 255 (the designer takes hex, e.g. 01ff)";
    }
  }
}

export function checkSampleValues(f: Field, at: string, r: RuleSink, model?: SampleModel): void {
  const m = model ?? f.sample;
  if (!m || f.type.kind === "group") return;
  // a value that rarely changes draws its values from another model, checked the same way
  if (m.kind === "hold") checkSampleValues(f, `${at}.from`, r, m.from);
  const t = f.type.kind === "array" ? f.type.of : f.type;
  const check = (v: unknown, path: string) => {
    const why = notAValue(t, v);
    if (why) r.add(path, `${r.label(path)} is ${showValue(v)}; ${why}.`);
  };
  if (m.kind === "constant") check(m.value, `${at}.value`);
  if (m.kind === "choice") {
    m.values.forEach((v, i) => check(v, `${at}.values[${i}]`));
    if (m.weights && m.weights.length !== m.values.length)
      r.add(
        `${at}.weights`,
        `Weights has ${count(m.weights.length, "number")} for ${count(m.values.length, "choice")}; give one weight per choice.`,
      );
  }
}
