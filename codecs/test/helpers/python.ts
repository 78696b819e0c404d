// Finds the reference-peer Python venv; CI creates it, so its absence is a setup error, not a skip.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TypedRecord } from "../../src/layout/values.ts";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export function referencePython(): string {
  const py = process.env.SATPAYLOAD_PYTHON ?? path.join(repoRoot, ".venv/bin/python");
  if (!existsSync(py))
    throw new Error(`reference Python not found at ${py}: run 'bash .ci/setup-python.sh' (CI does this)`);
  return py;
}

/** Runs a Python script with JSON on stdin and returns its JSON stdout. */
export function runPython(script: string, input: unknown, args: string[] = []): unknown {
  const out = execFileSync(referencePython(), [script, ...args], {
    input: JSON.stringify(input),
    maxBuffer: 256 * 1024 * 1024,
    cwd: repoRoot,
  });
  return JSON.parse(out.toString("utf8"));
}

/**
 * A typed record as JSON for the reference scripts (codecs/reference/ref_struct_layout.py's
 * convention): every number as its IEEE 754 binary64 bits, 64-bit integers as decimal text, bytes
 * as hex, so NaN, −0 and large integers arrive exactly.
 */
export function typedForPython(rec: TypedRecord): unknown {
  return JSON.parse(
    JSON.stringify(rec, (_k, v: unknown) => {
      if (typeof v === "number") {
        const dv = new DataView(new ArrayBuffer(8));
        dv.setFloat64(0, v);
        return { f: Buffer.from(dv.buffer).toString("hex") };
      }
      if (typeof v === "bigint") return { i: v.toString() };
      if (v instanceof Uint8Array) return { b: Buffer.from(v).toString("hex") };
      return v;
    }),
  );
}

/**
 * A tagged value from a reference script ({"f"} binary64 bits, {"i"} an integer as decimal text,
 * {"b"} hex bytes) as the typed record holds it; integers beyond 2^53 stay bigints.
 */
export function untagFromPython(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(untagFromPython);
  if (v === null || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && typeof o.f === "string") return Buffer.from(o.f, "hex").readDoubleBE(0);
  if (keys.length === 1 && typeof o.i === "string") {
    const n = BigInt(o.i);
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  }
  if (keys.length === 1 && typeof o.b === "string") return Uint8Array.from(Buffer.from(o.b, "hex"));
  return Object.fromEntries(keys.map((k) => [k, untagFromPython(o[k])]));
}

/** A typed record with its bigints that fit a double as numbers, to compare with untagFromPython's output. */
export function safeBigints(v: unknown): unknown {
  if (typeof v === "bigint")
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  if (Array.isArray(v)) return v.map(safeBigints);
  if (v === null || typeof v !== "object" || v instanceof Uint8Array) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, safeBigints(x)]));
}
