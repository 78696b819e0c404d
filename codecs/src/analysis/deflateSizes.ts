// Struct+Zlib sizes need the compressed bytes, but not again for a sample whose Struct stream did not change: edits
// that leave the stream alone (a unit, a name, a field's samples that Struct writes the same) cost one Struct encode,
// and an edit that cannot change any stream (a key, a name, a unit: same settings, same field types, same values)
// costs none.
import { recordAt, type SampleColumn, type Values } from "./sampleColumns.ts";
import { describeError, type FormatSizes } from "./sizes.ts";
import { summarize } from "./stats.ts";
import { withoutStacks } from "./withoutStacks.ts";
import { codecFor, type FormatId } from "../formats/registry.ts";
import type { CompiledStructZlib } from "../formats/struct-zlib/codec.ts";
import type { Field, Layout } from "../layout/schema.ts";

const FORMAT: FormatId = "struct-zlib";

/** A field as its Struct bytes see it: not its key, name, unit or description, nor its sample model (the values are). */
const structViews = new WeakMap<Field, string>();
function structView(f: Field): string {
  let v = structViews.get(f);
  if (v === undefined)
    structViews.set(
      f,
      (v = JSON.stringify({
        ...f,
        key: undefined,
        name: undefined,
        unit: undefined,
        description: undefined,
        sample: undefined,
      })),
    );
  return v;
}

const valueIds = new WeakMap<Values, number>();
let nextValueId = 0;
function valueId(values: Values): number {
  let id = valueIds.get(values);
  if (id === undefined) valueIds.set(values, (id = nextValueId++));
  return id;
}

/** Everything the Struct streams are made of: the layout's settings, and per column the field's view and its values. */
function streamsKey(layout: Layout, columns: readonly SampleColumn[]): string {
  const settings = JSON.stringify({ ...layout, fields: undefined });
  return `${settings}\n${columns.map((c) => `${structView(c.field)}#${valueId(c.values)}`).join("\n")}`;
}

export class DeflateSizes {
  private generation = "";
  /** per sample: the last stream compressed and its compressed size (−1: the sample did not encode) */
  private streams: (Uint8Array | undefined)[] = [];
  private compressed = new Int32Array(0);
  private errors: (string | undefined)[] = [];
  /** what the streams of samples [0, encodedUpTo) were encoded from, while none of them was refused */
  private encodedFrom = "";
  private encodedUpTo = 0;

  /** Sizes of samples [0, upTo); `recompressed` counts the samples whose stream changed. */
  measure(
    layout: Layout,
    columns: readonly SampleColumn[],
    n: number,
    generation: string,
    upTo = n,
  ): FormatSizes & { measured: number; recompressed: number; reencoded: number } {
    if (generation !== this.generation) {
      this.generation = generation;
      this.streams = new Array(n);
      this.compressed = new Int32Array(n);
      this.errors = new Array(n);
      this.encodedFrom = "";
      this.encodedUpTo = 0;
    }
    const end = Math.min(upTo, n);
    let codec: CompiledStructZlib;
    try {
      codec = codecFor(layout, FORMAT) as CompiledStructZlib;
    } catch (e) {
      this.encodedFrom = "";
      return {
        format: FORMAT,
        sizes: new Uint32Array(0),
        stats: summarize([]),
        errors: end,
        firstError: describeError(e),
        measured: end,
        recompressed: 0,
        reencoded: 0,
      };
    }
    const sizes = new Uint32Array(end);
    let ok = 0;
    let recompressed = 0;
    let firstErrorSample = -1;
    // the samples encoded from the same streams before are as they were (none of them was refused)
    const key = streamsKey(layout, columns);
    const from = key === this.encodedFrom ? Math.min(this.encodedUpTo, end) : 0;
    for (; ok < from; ok++) sizes[ok] = this.compressed[ok]!;
    withoutStacks(() => {
      for (let i = from; i < end; i++) {
        let stream: Uint8Array;
        try {
          stream = codec.stream.encode(recordAt(columns, i));
        } catch (e) {
          // only the message is kept (describeError), so the stack is not captured
          this.streams[i] = undefined;
          this.errors[i] = describeError(e);
          if (firstErrorSample < 0) firstErrorSample = i;
          continue;
        }
        const last = this.streams[i];
        if (!last || !sameBytes(last, stream)) {
          this.compressed[i] = codec.compress(stream).length;
          this.streams[i] = stream;
          recompressed++;
        }
        sizes[ok++] = this.compressed[i]!;
      }
    });
    // a refused sample's message names its field by key: after an edit it is written again
    if (firstErrorSample >= 0) this.encodedFrom = "";
    else {
      this.encodedUpTo = key === this.encodedFrom ? Math.max(this.encodedUpTo, end) : end;
      this.encodedFrom = key;
    }
    const kept = ok === end ? sizes : sizes.slice(0, ok);
    const out: FormatSizes & { measured: number; recompressed: number; reencoded: number } = {
      format: FORMAT,
      sizes: kept,
      stats: summarize(kept),
      errors: end - ok,
      measured: end,
      recompressed,
      reencoded: end - from,
    };
    if (firstErrorSample >= 0) {
      out.firstError = this.errors[firstErrorSample]!;
      out.firstErrorSample = firstErrorSample;
    }
    return out;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
