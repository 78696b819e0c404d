// One batch through a compiled C harness, checked against the TypeScript codec of the same format:
// encode both ways, decode both ways, every truncation, a trailing byte, a too-small buffer and
// mutated messages (C and TypeScript must accept and reject the same inputs and agree on values).
import { isDeepStrictEqual } from "node:util";
import {
  codecFor,
  type FieldValue,
  type FormatId,
  generateSamples,
  type Layout,
  Prng,
  type TypedRecord,
} from "#codecs";
import { decodeUnlessRejected, encodeUnlessRefused } from "#codecs-test/helpers/expectedErrors.ts";
import { run } from "./build.ts";
import { asCRecord, hex, recordTokens, tokensRecord } from "./tokens.ts";
import type { CModel } from "../../../src/c/model.ts";

/** sp_status values of satpayload_rt.h the checks name */
export const SP = { CAPACITY: -1, TRUNCATED: -2, TRAILING: -3, VALUE: -6 } as const;

export interface CrossReport {
  records: number;
  /** records the TypeScript encoder refuses (the C packer must refuse them too) */
  refused: number;
  encodeMismatches: string[];
  decodeMismatches: string[];
  truncations: number;
  truncationMismatches: string[];
  trailingMismatches: string[];
  capacityMismatches: string[];
  mutations: number;
  /** mutated inputs both sides accepted (the rest both rejected) */
  mutationsAccepted: number;
  mutationMismatches: string[];
  stderr: string;
  exitCode: number | null;
}

const show = (v: unknown) =>
  JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x instanceof Uint8Array ? `0x${hex(x)}` : x));

/** C strings end at NUL: a decoded string holding U+0000 is refused by the C unpackers (SP_ERR_VALUE). */
function holdsNul(v: FieldValue | undefined): boolean {
  if (typeof v === "string") return v.includes("\0");
  if (Array.isArray(v)) return v.some((x) => holdsNul(x));
  if (v && typeof v === "object" && !(v instanceof Uint8Array)) return Object.values(v).some((x) => holdsNul(x));
  return false;
}

function mutate(b: Uint8Array, rng: Prng): Uint8Array {
  const out = Array.from(b);
  const kind = rng.int(0, 3);
  const at = out.length ? rng.int(0, out.length - 1) : 0;
  if (kind === 0 && out.length) out[at] = out[at]! ^ (1 << rng.int(0, 7));
  else if (kind === 1 && out.length) out[at] = rng.int(0, 255);
  else if (kind === 2) out.splice(at, 0, rng.int(0, 255));
  else out.splice(at, 1);
  return Uint8Array.from(out);
}

type Decoded = { ok: true; rec: TypedRecord } | { ok: false };

export async function crossCheck(
  layout: Layout,
  m: CModel,
  format: FormatId,
  exe: string,
  opts: { records: number; seed: number; truncated: number; mutations: number },
): Promise<CrossReport> {
  const codec = codecFor(layout, format);
  const recs = generateSamples(layout, opts.records, opts.seed);
  // a refused record is an EncodeError; anything else from our encoder is a bug and fails the batch
  const encoded = recs.map((r) => encodeUnlessRefused(codec, r));
  const valid = encoded.filter((b): b is Uint8Array => b !== undefined);
  const tsDecode = (b: Uint8Array): Decoded => {
    const rec = decodeUnlessRejected(codec, b);
    return rec === undefined ? { ok: false } : { ok: true, rec };
  };

  const lines: string[] = [];
  const checks: ((out: string) => void)[] = [];
  const report: CrossReport = {
    records: recs.length,
    refused: recs.length - valid.length,
    encodeMismatches: [],
    decodeMismatches: [],
    truncations: 0,
    truncationMismatches: [],
    trailingMismatches: [],
    capacityMismatches: [],
    mutations: 0,
    mutationsAccepted: 0,
    mutationMismatches: [],
    stderr: "",
    exitCode: null,
  };
  const add = (line: string, check: (out: string) => void) => {
    lines.push(line);
    checks.push(check);
  };
  const expectDecode = (bytes: Uint8Array, into: string[], what: string, count?: () => void) => {
    const ts = tsDecode(bytes);
    add(`D ${hex(bytes)}`, (out) => {
      count?.();
      if (!ts.ok) {
        if (!out.startsWith("ERR ")) into.push(`${what}: TypeScript rejects ${hex(bytes)}, C printed ${out}`);
        return;
      }
      if (holdsNul(ts.rec)) {
        if (out !== `ERR ${SP.VALUE}`)
          into.push(`${what}: a string with NUL must give ERR ${SP.VALUE}, C printed ${out}`);
        return;
      }
      if (!out.startsWith("OK")) {
        into.push(`${what}: TypeScript accepts ${hex(bytes)} as ${show(ts.rec)}, C printed ${out}`);
        return;
      }
      const got = tokensRecord(m, out.slice(2));
      if (!isDeepStrictEqual(got, asCRecord(m, ts.rec)))
        into.push(`${what}: ${hex(bytes)} C ${show(got)} ≠ TypeScript ${show(ts.rec)}`);
    });
  };

  recs.forEach((r, i) => {
    const b = encoded[i];
    add(`E ${recordTokens(m, r)}`, (out) => {
      const want = b ? `OK ${hex(b)}` : "ERR";
      if (b ? out !== want : !out.startsWith("ERR "))
        report.encodeMismatches.push(`record ${i} ${show(r)}: C ${out}, TypeScript ${want}`);
    });
  });
  valid.forEach((b, i) => expectDecode(b, report.decodeMismatches, `message ${i}`));

  for (const b of valid.slice(0, opts.truncated)) {
    for (let n = 0; n < b.length; n++) {
      const cut = b.subarray(0, n);
      const ts = tsDecode(cut);
      add(`D ${hex(cut)}`, (out) => {
        report.truncations++;
        // a prefix of a Struct or bit-packed message is short of something; a cut zlib stream is just broken
        const want = format === "struct-zlib" ? "ERR " : `ERR ${SP.TRUNCATED}`;
        if (ts.ok || !out.startsWith(want))
          report.truncationMismatches.push(`${hex(cut)}: C ${out}, TypeScript ${ts.ok ? "accepts" : "rejects"}`);
      });
    }
    const long = Uint8Array.from([...b, 0]);
    const ts = tsDecode(long);
    add(`D ${hex(long)}`, (out) => {
      if (ts.ok || out !== `ERR ${SP.TRAILING}`)
        report.trailingMismatches.push(`${hex(long)}: C ${out}, TypeScript ${ts.ok ? "accepts" : "rejects"}`);
    });
  }

  recs.slice(0, opts.truncated).forEach((r, i) => {
    const b = encoded[i];
    if (!b || b.length === 0) return;
    add(`C ${b.length - 1} ${recordTokens(m, r)}`, (out) => {
      if (out !== `ERR ${SP.CAPACITY}`)
        report.capacityMismatches.push(`record ${i} into ${b.length - 1} bytes: C ${out}`);
    });
  });

  const rng = new Prng(opts.seed);
  for (let k = 0; k < opts.mutations && valid.length; k++) {
    const bytes = mutate(valid[k % valid.length]!, rng);
    const accepted = tsDecode(bytes).ok;
    expectDecode(bytes, report.mutationMismatches, `mutation ${k}`, () => {
      report.mutations++;
      if (accepted) report.mutationsAccepted++;
    });
  }

  const res = await run(exe, lines);
  report.stderr = res.stderr;
  report.exitCode = res.code;
  checks.forEach((check, i) => check(res.lines[i] ?? "(no output)"));
  if (res.lines.length !== lines.length)
    report.encodeMismatches.push(`harness printed ${res.lines.length} lines for ${lines.length} inputs`);
  return report;
}
