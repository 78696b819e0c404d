// The wire value of a source record's scalar, written from docs/design/sbe-mapping.md and
// struct-mapping.md without the codecs: fixed-point raw, epoch seconds or ticks, enum values, SBE null
// values, timestamp text. Shared by the SBE and Kaitai proofs.
import type { ScalarType, ScalarValue } from "#codecs";

type Code = "b" | "B" | "h" | "H" | "i" | "I" | "q" | "Q" | "f" | "d";

/** d when the resolution is 10^-d (0.1, 0.01 …), else 0 */
export function decimalsOf(resolution: number): number {
  const d = Math.round(-Math.log10(resolution));
  return d > 0 && Math.abs(10 ** -d - resolution) < 1e-12 ? d : 0;
}

export function rawOf(t: ScalarType, v: ScalarValue, code: Code): number | bigint {
  switch (t.kind) {
    case "bool":
      return v ? 1 : 0;
    case "enum": {
      const e = t.values.find((x) => x.name === v);
      if (!e) throw new Error(`${String(v)} is not a value of the enum`);
      return e.value;
    }
    case "int":
    case "float":
      return v as number | bigint;
    case "fixed":
      return Math.round(((v as number) - t.offset) / t.scale);
    case "timestamp": {
      if (t.encoding !== "epoch") break;
      const s = v as number;
      if (code === "I") return Math.round(s);
      if (code === "q") {
        const d = decimalsOf(t.resolution);
        return d ? Math.round(s * 10 ** d) : Math.round(s / t.resolution);
      }
      break;
    }
    default:
      break;
  }
  throw new Error(`no SBE wire value for ${t.kind} in a ${code} slot`);
}

/** The SBE spec's default null values: max of unsigned, min of signed, quiet NaN (as printed by the harness). */
export function sbeNullText(code: Code): string {
  const nulls: Record<Code, string> = {
    B: "255",
    H: "65535",
    I: "4294967295",
    Q: "18446744073709551615",
    b: "-128",
    h: "-32768",
    i: "-2147483648",
    q: "-9223372036854775808",
    f: "7fc00000",
    d: "7ff8000000000000",
  };
  return nulls[code];
}

const two = (n: number) => String(n).padStart(2, "0");

/** A text timestamp as its textFormat prints it (YYYY YY MM DD hh mm ss, ".s…" after ss), UTC. */
export function timeText(t: Extract<ScalarType, { kind: "timestamp" }>, seconds: number): string {
  const fmt = t.textFormat ?? "";
  const d = decimalsOf(t.resolution);
  const ticks = Math.round(seconds * 10 ** d);
  const whole = Math.floor(ticks / 10 ** d);
  const frac = ticks - whole * 10 ** d;
  const at = new Date(whole * 1000);
  const tokens: Array<[string, string]> = [
    ["YYYY", String(at.getUTCFullYear()).padStart(4, "0")],
    ["YY", two(at.getUTCFullYear() % 100)],
    ["MM", two(at.getUTCMonth() + 1)],
    ["DD", two(at.getUTCDate())],
    ["hh", two(at.getUTCHours())],
    ["mm", two(at.getUTCMinutes())],
    ["ss", two(at.getUTCSeconds())],
  ];
  let out = "";
  for (let i = 0; i < fmt.length;) {
    const hit = tokens.find(([tok]) => fmt.startsWith(tok, i));
    if (!hit) {
      out += fmt[i++];
      continue;
    }
    out += hit[1];
    i += hit[0].length;
    const fracMatch = hit[0] === "ss" ? /^\.(s+)/.exec(fmt.slice(i)) : null;
    if (fracMatch) {
      const width = fracMatch[1]!.length;
      out += `.${`${d ? String(frac).padStart(d, "0") : ""}${"0".repeat(width)}`.slice(0, width)}`;
      i += fracMatch[0].length;
    }
  }
  return out;
}
