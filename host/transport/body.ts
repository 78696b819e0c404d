// Reads a request body up to a byte limit without ever buffering more than the limit.
import type { IncomingMessage } from "node:http";

export type BodyResult = { ok: true; text: string } | { ok: false; status: 400 | 413; reason: string };

/** Past this much an oversized upload is cut off instead of drained to a clean 413. */
const DRAIN_CAP = 64 * 1024 * 1024;

export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"] ?? NaN);
    const tooLarge = (): BodyResult => ({ ok: false, status: 413, reason: `request body exceeds ${limit} bytes` });
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      // keep reading (and discarding) so the client finishes sending and then sees the 413
      if (over) {
        chunks.length = 0;
        if (size > DRAIN_CAP) {
          resolve(tooLarge());
          req.destroy();
        }
      } else chunks.push(chunk);
    });
    req.on("end", () => {
      if (over) return resolve(tooLarge());
      try {
        resolve({ ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks, size)) });
      } catch {
        resolve({ ok: false, status: 400, reason: "request body is not UTF-8" });
      }
    });
    req.on("error", () => resolve({ ok: false, status: 400, reason: "request body could not be read" }));
  });
}
