// Reads a JSON request body as UTF-8 text, up to a byte limit, over the services' byte reader.
import type { IncomingMessage } from "node:http";
import { strictUtf8Decoder } from "#codecs";
import { readBytes } from "#services/shared/readBytes.ts";

export type BodyResult = { ok: true; text: string } | { ok: false; status: 400 | 413; reason: string };

export async function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const r = await readBytes(req, limit);
  if (!r.ok) return r;
  try {
    return { ok: true, text: strictUtf8Decoder.decode(r.bytes) };
  } catch {
    return { ok: false, status: 400, reason: "request body is not UTF-8" };
  }
}
