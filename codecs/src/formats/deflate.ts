// zlib (RFC 1950) deflate / inflate for Struct+Zlib, through pako's low-level API so one deflate
// state is reused across records and inflation is bounded by what the layout allows.
import {
  ZStream,
  Z_DEFAULT_STRATEGY,
  Z_FINISH,
  Z_BUF_ERROR,
  Z_STREAM_END,
  zlibDeflate,
  zlibDeflateInit2,
  zlibDeflateReset,
  zlibDeflateResetKeep,
  zlibInflate as pakoInflate,
  zlibInflateInit2,
  zlibInflateReset,
} from "pako";

// zlib's header for windowBits 15, memLevel 8
const WINDOW_BITS = 15;
const MEM_LEVEL = 8;
const LEVEL = 9;

let deflater: ZStream | undefined;
let out = new Uint8Array(1024);

/**
 * deflateReset() ends in lm_init(), which clears the 32 768-entry hash head with a JavaScript loop:
 * half the time of compressing a 116-byte record. We reset the same way with a native fill() and
 * the match parameters lm_init() left in the fresh state. The fields are pako internals, so they are
 * checked once; if pako ever lays its state out differently we fall back to deflateReset().
 */
const LM_FIELDS = [
  "window_size",
  "max_lazy_match",
  "good_match",
  "nice_match",
  "max_chain_length",
  "strstart",
  "block_start",
  "lookahead",
  "insert",
  "match_length",
  "prev_length",
  "match_available",
  "ins_h",
] as const;
type LmState = Record<(typeof LM_FIELDS)[number], number> & { head: Uint16Array };
let lmSnapshot: number[] | undefined;

function snapshotLm(strm: ZStream): number[] | undefined {
  const st = strm.state as Partial<LmState> | undefined;
  if (!st || !(st.head instanceof Uint16Array)) return undefined;
  const values = LM_FIELDS.map((k) => st[k]);
  return values.every((v) => typeof v === "number") ? (values as number[]) : undefined;
}

function reset(strm: ZStream): void {
  if (!lmSnapshot || zlibDeflateResetKeep(strm) !== 0) {
    zlibDeflateReset(strm);
    return;
  }
  const st = strm.state as LmState;
  st.head.fill(0);
  for (let i = 0; i < LM_FIELDS.length; i++) st[LM_FIELDS[i]!] = lmSnapshot[i]!;
}

function state(): ZStream {
  if (!deflater) {
    deflater = new ZStream();
    const status = zlibDeflateInit2(deflater, LEVEL, 8, WINDOW_BITS, MEM_LEVEL, Z_DEFAULT_STRATEGY, true);
    if (status !== 0) throw new Error(`pako deflateInit2 failed (${status})`);
    lmSnapshot = snapshotLm(deflater);
  } else reset(deflater);
  return deflater;
}

/**
 * Recent results by input. Deflate costs ~20 µs per paper record here (its Huffman trees alone are
 * most of it) while the designer re-encodes the same samples on every keystroke, and most edits
 * (names, units, other formats' options) leave the Struct stream unchanged.
 */
const CACHE_ENTRIES = 4096;
const CACHE_MAX_INPUT = 1024;
const cache = new Map<string, Uint8Array>();

/** zlib.compress(data, 9) as zlib 1.2.x writes it (deflateFacts.ts: how closely, measured). */
export function zlibCompress(data: Uint8Array): Uint8Array {
  const key = data.length <= CACHE_MAX_INPUT ? String.fromCharCode.apply(null, data as unknown as number[]) : undefined;
  if (key !== undefined) {
    const hit = cache.get(key);
    if (hit) return hit.slice();
  }
  const result = deflateOnce(data);
  if (key !== undefined) {
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, result.slice());
  }
  return result;
}

function deflateOnce(data: Uint8Array): Uint8Array {
  const strm = state();
  // deflateBound() for these parameters, rounded up
  const bound = data.length + (data.length >>> 12) + (data.length >>> 14) + (data.length >>> 25) + 64;
  if (out.length < bound) out = new Uint8Array(bound);
  strm.input = data;
  strm.next_in = 0;
  strm.avail_in = data.length;
  strm.output = out;
  strm.next_out = 0;
  strm.avail_out = bound;
  const status = zlibDeflate(strm, Z_FINISH);
  if (status !== Z_STREAM_END) throw new Error(`pako deflate did not finish (${status})`);
  const result = out.slice(0, strm.next_out);
  // drop the reference to the caller's bytes
  strm.input = EMPTY;
  return result;
}

const EMPTY = new Uint8Array(0);

/** Raised for any zlib stream that does not inflate to at most maxOut bytes with nothing after it. */
export class InflateError extends Error {
  constructor(
    message: string,
    readonly offset?: number,
  ) {
    super(message);
  }
}

let inflater: ZStream | undefined;

function inflaterState(): ZStream {
  if (!inflater) {
    inflater = new ZStream();
    if (zlibInflateInit2(inflater, WINDOW_BITS) !== 0) throw new Error("pako inflateInit2 failed");
  } else zlibInflateReset(inflater);
  return inflater;
}

/**
 * Inflates one zlib stream (zlib wrapper only, checksum verified). Never allocates much more than
 * maxOut: a stream that would inflate beyond it is rejected as soon as it gets there.
 */
export function zlibInflate(data: Uint8Array, maxOut: number): Uint8Array {
  const strm = inflaterState();
  try {
    strm.input = data;
    strm.next_in = 0;
    strm.avail_in = data.length;
    let buf = new Uint8Array(Math.min(maxOut + 1, 1024));
    strm.output = buf;
    strm.next_out = 0;
    strm.avail_out = buf.length;
    for (;;) {
      // Z_FINISH: a stream that fits the buffer inflates in one call without filling pako's window
      const status = pakoInflate(strm, Z_FINISH);
      if (status === Z_STREAM_END) break;
      if (status === Z_BUF_ERROR && strm.avail_out === 0) {
        if (buf.length > maxOut)
          throw new InflateError(`inflates to more than the ${maxOut} bytes the layout allows`, strm.next_in);
        const next = new Uint8Array(Math.min(maxOut + 1, buf.length * 2));
        next.set(buf);
        buf = next;
        strm.output = buf;
        strm.avail_out = buf.length - strm.next_out;
        continue;
      }
      // no progress possible with output room left: the input ended inside the stream
      if (status === Z_BUF_ERROR) throw new InflateError("truncated zlib stream", data.length);
      throw new InflateError(`not a valid zlib stream (${strm.msg || `status ${status}`})`, strm.next_in);
    }
    if (strm.next_out > maxOut)
      throw new InflateError(`inflates to more than the ${maxOut} bytes the layout allows`, strm.next_in);
    if (strm.avail_in !== 0)
      throw new InflateError(
        `${strm.avail_in} trailing byte${strm.avail_in === 1 ? "" : "s"} after the zlib stream`,
        strm.next_in,
      );
    return buf.subarray(0, strm.next_out);
  } finally {
    strm.input = EMPTY;
    strm.output = EMPTY;
  }
}
