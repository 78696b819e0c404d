// The Kaitai proof shared by the layout and batch tests: a .ksy compiled by the kaitai-struct-compiler npm
// package to JavaScript, run with the unmodified kaitai-struct runtime on our encoder's bytes, and every
// field it reads must be the value of the source record (expect.ts).
import { createRequire } from "node:module";
import { expect } from "vitest";
import { codecFor, EncodeError, generateSamples, type Layout, type TypedRecord } from "#codecs";
import { bitsChecks, close, numericBits, plain, structChecks } from "./expect.ts";
import { kaitaiSpec, type KaitaiFormat } from "../../src/kaitai.ts";

const require = createRequire(import.meta.url);
const compiler = require("kaitai-struct-compiler") as {
  compile(lang: string, spec: unknown, importer: unknown, debug: boolean): Promise<Record<string, string>>;
};
export const KaitaiStream = require("kaitai-struct/KaitaiStream") as new (buf: Uint8Array) => unknown;

type Parser = new (io: unknown) => Record<string, unknown>;

export async function compileParser(spec: unknown): Promise<Parser> {
  const files = await compiler.compile("javascript", spec, null, false);
  const [name, source] = Object.entries(files)[0]!;
  const mod: { exports: Record<string, Parser> } = { exports: {} };
  // the generated module is UMD: give it CommonJS with the runtime as its only dependency
  new Function("module", "exports", "require", "define", source)(mod, mod.exports, () => KaitaiStream, undefined);
  return mod.exports[name.replace(/\.js$/, "")]!;
}

export const SAMPLES = 300;

/** A user-type value (an inline-length string, a split int64) by its `value`; everything else as read. */
function unwrap(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(unwrap);
  if (v !== null && typeof v === "object" && !(v instanceof Uint8Array) && "value" in v)
    return (v as { value: unknown }).value;
  return v;
}

/** Kaitai's JavaScript names fields in lowerCamelCase; arrays of split (hi, lo) fields are joined here. */
function read(parsed: Record<string, unknown>, id: string): unknown {
  const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  const v = parsed[camel(id)];
  const hi = parsed[camel(`${id}_hi`)];
  const lo = parsed[camel(`${id}_lo`)];
  if (v === undefined && Array.isArray(hi) && Array.isArray(lo))
    return hi.map((h: number, i) => h * 4294967296 + (lo[i] as number));
  return unwrap(v);
}

/**
 * Compiles the spec of `layout`, parses our bytes of each record (generated samples unless given) and
 * checks every field it reads against the record; returns how many records were encodable.
 */
export async function prove(
  layout: Layout,
  format: KaitaiFormat,
  records: readonly TypedRecord[] = generateSamples(layout, SAMPLES, 9),
  spec: unknown = kaitaiSpec(layout, format),
): Promise<number> {
  const Parser = await compileParser(spec);
  const codec = codecFor(layout, format);
  let n = 0;
  for (const sample of records) {
    let bytes: Uint8Array;
    try {
      bytes = codec.encode(sample);
    } catch (e) {
      if (e instanceof EncodeError) continue;
      throw e;
    }
    const parsed = new Parser(new KaitaiStream(bytes));
    const checks = format === "struct" ? structChecks(layout, sample) : bitsChecks(layout, sample);
    for (const c of checks) {
      const got = numericBits(plain(read(parsed, c.id)), c.want);
      const ok =
        c.how === "approx"
          ? close(got, c.want)
          : c.how === "approx32"
            ? close(got, c.want, 2 ** -23)
            : JSON.stringify(got) === JSON.stringify(c.want);
      if (!ok)
        throw new Error(
          `${format} ${c.id}: Kaitai read ${JSON.stringify(got)}, the source record gives ${JSON.stringify(c.want)} (sample ${n}, bytes ${Buffer.from(bytes).toString("hex")})`,
        );
    }
    if (format === "struct")
      expect((parsed._io as { pos: number }).pos, "Kaitai consumed every byte").toBe(bytes.length);
    n++;
  }
  return n;
}
