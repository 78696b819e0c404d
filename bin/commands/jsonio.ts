// JSON as devices and Python write it: NaN/Infinity tokens and 64-bit integers survive the trip through the CLI.
import type { PlainRecord, PlainValue } from "#codecs";

export { parseJsonLenient } from "#codecs";

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
