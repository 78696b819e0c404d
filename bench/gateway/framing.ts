// The stream between sender and receiver: each message prefixed with its length (uint32
// little-endian), as a gateway reads records off a socket.

/** One buffer holding every message, each after its 4-byte length. */
export function frameAll(messages: readonly Uint8Array[]): Buffer {
  let total = 0;
  for (const m of messages) total += 4 + m.length;
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (const m of messages) {
    out.writeUInt32LE(m.length, at);
    out.set(m, at + 4);
    at += 4 + m.length;
  }
  return out;
}

export class FrameError extends Error {
  override readonly name = "FrameError";
}

/**
 * Splits socket chunks into messages. Whole frames are handed out as views of the chunk they
 * arrived in; only a frame cut by a chunk boundary is copied.
 */
export class FrameReader {
  private pending: Buffer | null = null;

  constructor(
    private readonly onMessage: (bytes: Uint8Array) => void,
    private readonly maxMessage: number,
  ) {}

  push(chunk: Buffer): void {
    let at = 0;
    if (this.pending) {
      // complete the cut frame from the head of this chunk, then read the rest of the chunk in place
      const head = this.pending;
      const need = head.length < 4 ? Math.min(4 - head.length, chunk.length) : 0;
      const withHeader = need > 0 ? Buffer.concat([head, chunk.subarray(0, need)]) : head;
      at = need;
      if (withHeader.length < 4) {
        this.pending = withHeader;
        return;
      }
      const n = this.length(withHeader, 0);
      const missing = 4 + n - withHeader.length;
      if (chunk.length - at < missing) {
        this.pending = Buffer.concat([withHeader, chunk.subarray(at)]);
        return;
      }
      const frame = Buffer.concat([withHeader, chunk.subarray(at, at + missing)]);
      at += missing;
      this.pending = null;
      this.onMessage(frame.subarray(4));
    }
    while (chunk.length - at >= 4) {
      const n = this.length(chunk, at);
      if (chunk.length - at - 4 < n) break;
      this.onMessage(chunk.subarray(at + 4, at + 4 + n));
      at += 4 + n;
    }
    if (at < chunk.length) this.pending = Buffer.from(chunk.subarray(at));
  }

  private length(buf: Buffer, at: number): number {
    const n = buf.readUInt32LE(at);
    if (n > this.maxMessage) throw new FrameError(`frame of ${n} bytes announced, more than ${this.maxMessage}`);
    return n;
  }

  /** the stream ended: anything left over is a truncated frame */
  end(): void {
    if (this.pending) throw new FrameError(`stream ended inside a frame (${this.pending.length} bytes left)`);
  }
}
