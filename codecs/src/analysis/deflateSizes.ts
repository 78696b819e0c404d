// Struct+Zlib sizes need the compressed bytes, but not again for a sample whose Struct stream did not change: edits
// that leave the stream alone (a unit, a name, a field's samples that Struct writes the same) cost one Struct encode.
import { recordAt, type SampleColumn } from "./sampleColumns.ts";
import { describeError, type FormatSizes } from "./sizes.ts";
import { summarize } from "./stats.ts";
import { withoutStacks } from "./withoutStacks.ts";
import { codecFor } from "../formats/registry.ts";
import type { CompiledStructZlib } from "../formats/structZlib.ts";
import type { FormatId } from "../formats/types.ts";
import type { Layout } from "../layout/schema.ts";

const FORMAT: FormatId = "struct-zlib";

export class DeflateSizes {
  private generation = "";
  /** per sample: the last stream compressed and its compressed size (−1: the sample did not encode) */
  private streams: (Uint8Array | undefined)[] = [];
  private compressed = new Int32Array(0);
  private errors: (string | undefined)[] = [];

  /** Sizes of samples [0, upTo); `recompressed` counts the samples whose stream changed. */
  measure(
    layout: Layout,
    columns: readonly SampleColumn[],
    n: number,
    generation: string,
    upTo = n,
  ): FormatSizes & { measured: number; recompressed: number } {
    if (generation !== this.generation) {
      this.generation = generation;
      this.streams = new Array(n);
      this.compressed = new Int32Array(n);
      this.errors = new Array(n);
    }
    const end = Math.min(upTo, n);
    let codec: CompiledStructZlib;
    try {
      codec = codecFor(layout, FORMAT) as CompiledStructZlib;
    } catch (e) {
      return {
        format: FORMAT,
        sizes: new Uint32Array(0),
        stats: summarize([]),
        errors: end,
        firstError: describeError(e),
        measured: end,
        recompressed: 0,
      };
    }
    const sizes = new Uint32Array(end);
    let ok = 0;
    let recompressed = 0;
    let firstErrorSample = -1;
    withoutStacks(() => {
      for (let i = 0; i < end; i++) {
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
    const kept = ok === end ? sizes : sizes.slice(0, ok);
    const out: FormatSizes & { measured: number; recompressed: number } = {
      format: FORMAT,
      sizes: kept,
      stats: summarize(kept),
      errors: end - ok,
      measured: end,
      recompressed,
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
