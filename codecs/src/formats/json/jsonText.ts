// JSON text exactly as Python's json.dumps writes it: "python" is the defaults (ensure_ascii,
// ", " / ": "), "compact" is separators=(",", ":") with ensure_ascii=False (UTF-8 as is).
import { pyFloatRepr } from "../../text/numbers.ts";
import type { ByteWriter } from "../selfdescribing/byteWriter.ts";
import { pyFloat32Repr } from "../selfdescribing/float32Text.ts";
import type { NumHint } from "../selfdescribing/plan.ts";

export type JsonSpacing = "compact" | "python";

const HEX = "0123456789abcdef";
const SHORT: Record<number, string> = {
  0x22: '\\"',
  0x5c: "\\\\",
  0x08: "\\b",
  0x0c: "\\f",
  0x0a: "\\n",
  0x0d: "\\r",
  0x09: "\\t",
};

/** Python's escape for one UTF-16 unit: the short forms, else \uXXXX in lowercase hex. */
function escapeUnit(c: number): string {
  return SHORT[c] ?? `\\u${HEX[(c >> 12) & 15]}${HEX[(c >> 8) & 15]}${HEX[(c >> 4) & 15]}${HEX[c & 15]}`;
}

// per ASCII byte: undefined = written as is
const ESCAPE_ASCII: (string | undefined)[] = Array.from({ length: 128 }, (_, c) =>
  c < 0x20 || c === 0x22 || c === 0x5c || c === 0x7f ? escapeUnit(c) : undefined,
);
const ESCAPE_UTF8: (string | undefined)[] = Array.from({ length: 128 }, (_, c) =>
  c < 0x20 || c === 0x22 || c === 0x5c ? escapeUnit(c) : undefined,
);

/**
 * Writes `s` as a JSON string. Returns false for a lone surrogate: Python would write it escaped
 * (or fail to encode it as UTF-8), but a strict reader refuses it, so it is not representable.
 */
export function writeJsonString(out: ByteWriter, s: string, spacing: JsonSpacing): boolean {
  const python = spacing === "python";
  const table = python ? ESCAPE_ASCII : ESCAPE_UTF8;
  const n = s.length;
  out.byte(0x22);
  // runs of characters written as they are; in python mode those are ASCII only
  let runStart = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x80) {
      esc = table[c];
      if (esc === undefined) continue;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c > 0xdbff || d < 0xdc00 || d > 0xdfff) return false;
      if (!python) {
        i++;
        continue;
      }
      // ensure_ascii writes an astral character as its surrogate pair of \uXXXX escapes
      esc = escapeUnit(c) + escapeUnit(d);
      if (i > runStart) flush(out, s, runStart, i, python);
      out.ascii(esc);
      runStart = ++i + 1;
      continue;
    } else {
      if (!python) continue;
      esc = escapeUnit(c);
    }
    if (i > runStart) flush(out, s, runStart, i, python);
    out.ascii(esc);
    runStart = i + 1;
  }
  if (runStart < n) flush(out, s, runStart, n, python);
  out.byte(0x22);
  return true;
}

function flush(out: ByteWriter, s: string, start: number, end: number, ascii: boolean): void {
  const part = start === 0 && end === s.length ? s : s.slice(start, end);
  if (ascii) out.ascii(part);
  else out.utf8(part);
}

function nonFinite(x: number): string {
  return Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
}

/** A plain number as Python would print the field's value (int, float32 as printed, float repr). */
export function jsonNumber(x: number, hint: NumHint): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  switch (hint) {
    case "f32":
      return pyFloat32Repr(Math.fround(x));
    case "f64":
      return pyFloatRepr(x);
    default:
      if (!Number.isInteger(x)) return pyFloatRepr(x);
      // String() switches to exponent form from 1e21; an integer is written out in full
      return Math.abs(x) < 1e21 ? String(x === 0 ? 0 : x) : BigInt(x).toString();
  }
}
