// JSON as devices and Python write it: NaN/Infinity tokens and 64-bit integers survive the trip through the CLI.
import type { PlainRecord, PlainValue } from "#codecs";

const NON_FINITE = /^-?(?:NaN|Infinity)/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/;

/**
 * JSON.parse, except that Python's NaN / Infinity / -Infinity tokens and integers beyond 2^53 are
 * read as strings, which fromPlain turns back into the exact float or bigint the field holds.
 */
export function parseJsonLenient(text: string): unknown {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === "-" || ch === "N" || ch === "I" || (ch >= "0" && ch <= "9")) {
      const rest = text.slice(i, i + 400);
      const nf = NON_FINITE.exec(rest);
      if (nf) {
        out += JSON.stringify(nf[0]);
        i += nf[0].length;
        continue;
      }
      const num = NUMBER.exec(rest);
      if (num) {
        const tok = num[0];
        const unsafeInt = /^-?\d+$/.test(tok) && !Number.isSafeInteger(Number(tok));
        out += unsafeInt ? JSON.stringify(tok) : tok;
        i += tok.length;
        continue;
      }
    }
    out += ch;
    i++;
  }
  return JSON.parse(out);
}

/** One line of JSON; bigints as bare integers and non-finite floats as Python's tokens, the inverse of parseJsonLenient. */
export function stringifyJson(v: PlainValue | undefined): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "number")
    return Object.is(v, -0)
      ? "-0.0"
      : Number.isFinite(v)
        ? JSON.stringify(v)
        : Number.isNaN(v)
          ? "NaN"
          : v > 0
            ? "Infinity"
            : "-Infinity";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "string" || typeof v === "boolean") return JSON.stringify(v);
  if (v instanceof Uint8Array) return JSON.stringify(Buffer.from(v).toString("base64"));
  if (Array.isArray(v)) return `[${v.map(stringifyJson).join(",")}]`;
  return `{${Object.entries(v as PlainRecord)
    .map(([k, x]) => `${JSON.stringify(k)}:${stringifyJson(x)}`)
    .join(",")}}`;
}

export function isPlainRecord(v: unknown): v is PlainRecord {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
