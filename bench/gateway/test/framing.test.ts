// The receivers' framing: a stream cut anywhere (every chunk boundary a socket may produce) gives
// back exactly the messages framed, and bad streams are errors, not silently dropped bytes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { frameAll, FrameError, FrameReader } from "../framing.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

function readAll(stream: Buffer, cuts: number[], max = 1 << 16): string[] {
  const got: string[] = [];
  const r = new FrameReader((m) => got.push(hex(m)), max);
  let at = 0;
  for (const c of [...cuts, stream.length]) {
    r.push(stream.subarray(at, c));
    at = c;
  }
  r.end();
  return got;
}

describe("FrameReader", () => {
  it("reassembles any message list from any chunking", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (messages, rawCuts) => {
          const stream = frameAll(messages);
          const cuts = [...new Set(rawCuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
          expect(readAll(stream, cuts)).toEqual(messages.map(hex));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("one byte at a time", () => {
    const messages = [new Uint8Array([1, 2, 3]), new Uint8Array(0), new Uint8Array(300).fill(7)];
    const stream = frameAll(messages);
    expect(
      readAll(
        stream,
        Array.from({ length: stream.length - 1 }, (_, i) => i + 1),
      ),
    ).toEqual(messages.map(hex));
  });

  it("a stream that ends inside a frame is an error", () => {
    const stream = frameAll([new Uint8Array([1, 2, 3])]);
    expect(() => readAll(stream.subarray(0, 5), [2])).toThrow(FrameError);
    expect(() => readAll(stream.subarray(0, 2), [])).toThrow(/inside a frame/);
  });

  it("a frame longer than a message can be is refused before it is buffered", () => {
    const stream = frameAll([new Uint8Array(100)]);
    expect(() => readAll(stream, [], 99)).toThrow(/100 bytes announced, more than 99/);
    // announced in a chunk that completes a cut header
    expect(() => readAll(stream, [2], 99)).toThrow(/100 bytes announced/);
  });
});
