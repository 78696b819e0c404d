// Reads a binary request body up to a limit. Oversized uploads are drained (up to a cap) so the
// client gets its 413 instead of a reset connection.
import type { IncomingMessage } from "node:http";

export type BytesResult = { ok: true; bytes: Buffer } | { ok: false; status: 400 | 413; reason: string };

const DRAIN_CAP = 16 * 1024 * 1024;

export function readBytes(req: IncomingMessage, limit: number): Promise<BytesResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"] ?? NaN);
    const tooLarge = (): BytesResult => ({
      ok: false,
      status: 413,
      reason: `body is larger than the limit of ${limit} bytes`,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    let done = false;
    const finish = (r: BytesResult) => {
      if (done) return;
      done = true;
      resolve(r);
    };
    if (over && declared > DRAIN_CAP) {
      finish(tooLarge());
      req.resume();
      return;
    }
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (over) {
        chunks.length = 0;
        if (size > DRAIN_CAP) {
          finish(tooLarge());
          req.destroy();
        }
      } else chunks.push(chunk);
    });
    req.on("end", () =>
      finish(over ? tooLarge() : { ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) }),
    );
    req.on("error", () => finish({ ok: false, status: 400, reason: "the body could not be read" }));
    req.on("aborted", () => finish({ ok: false, status: 400, reason: "the client aborted the body" }));
  });
}
