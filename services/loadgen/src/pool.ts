// Payload pools: messages encoded before the run from the layout's sample model, so the client never
// encodes while measuring (the paper's control). The pool file carries them to Locust and k6.
import { base64ToBytes, bytesToBase64, codecFor, type FormatId, generateSamples, type Layout } from "#codecs";
import { defaultDeviceKey } from "../../decoder/src/layouts.ts";

export const POOL_SCHEMA = "satpayload.pool/1";

export interface PayloadPool {
  format: FormatId;
  seed: number;
  /** all payloads back to back (shareable with worker threads without copying) */
  data: Uint8Array;
  /** payload i is data[offsets[i] .. offsets[i + 1]) */
  offsets: Uint32Array;
  /**
   * > 0: payload i carries device (i mod stride)'s identity in the layout's device field, so device d
   * sends payloads d, d + stride, d + 2·stride, …; 0: the layout names no device, any payload fits
   */
  stride: number;
}

export function poolCount(p: PayloadPool): number {
  return p.offsets.length - 1;
}

export function poolPayload(p: PayloadPool, i: number): Uint8Array {
  return p.data.subarray(p.offsets[i]!, p.offsets[i + 1]!);
}

/** Where device `index` starts in the pool and how far it steps; the exported scripts do the same. */
export function deviceCursor(
  p: Pick<PayloadPool, "stride">,
  count: number,
  index: number,
): { start: number; step: number } {
  return p.stride > 0 ? { start: index % p.stride, step: p.stride } : { start: (index * 7919) % count, step: 1 };
}

/**
 * `size` records drawn from the layout's sample model and encoded. With `devices` > 0 and a layout
 * whose device field the decoder recognises (the paper's iso6346), every device gets its own identity
 * (the value its first sample drew) in all of its payloads, as a real fleet would send; the pool then
 * holds a whole number of payloads per device.
 */
export function buildPool(
  layout: Layout,
  format: FormatId,
  size: number,
  seed: number,
  shared = true,
  devices = 0,
): PayloadPool {
  const codec = codecFor(layout, format);
  const key = devices > 0 ? defaultDeviceKey(layout)?.[0] : undefined;
  const stride = key === undefined ? 0 : devices;
  const n = stride ? Math.ceil(Math.max(size, stride) / stride) * stride : size;
  let records = generateSamples(layout, n, seed);
  if (key !== undefined) {
    const identities = records.slice(0, stride).map((r) => r[key]);
    // new records, not mutated ones: codecs may memoise per record object
    records = records.map((r, i) => {
      const id = identities[i % stride];
      return id === undefined ? r : { ...r, [key]: id };
    });
  }
  const encoded = records.map((r) => codec.encode(r));
  const total = encoded.reduce((t, b) => t + b.length, 0);
  const data = new Uint8Array(shared ? new SharedArrayBuffer(total) : new ArrayBuffer(total));
  const offsets = new Uint32Array(shared ? new SharedArrayBuffer((n + 1) * 4) : new ArrayBuffer((n + 1) * 4));
  let at = 0;
  encoded.forEach((b, i) => {
    offsets[i] = at;
    data.set(b, at);
    at += b.length;
  });
  offsets[n] = at;
  return { format, seed, data, offsets, stride };
}

export function poolSizes(p: PayloadPool): { min: number; mean: number; max: number } {
  const n = poolCount(p);
  let min = Infinity;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const len = p.offsets[i + 1]! - p.offsets[i]!;
    min = Math.min(min, len);
    max = Math.max(max, len);
  }
  return { min: n ? min : 0, mean: n ? p.data.length / n : 0, max };
}

/** The JSON pool file the exported locustfile and k6 script read. */
export interface PoolFile {
  schema: typeof POOL_SCHEMA;
  layout: { id: string; name: string };
  format: FormatId;
  seed: number;
  /** the headers every request carries (the device and message id headers are added per request) */
  headers: Record<string, string>;
  /** see PayloadPool.stride: device n sends payloads n mod stride, + stride, …; 0: any */
  stride: number;
  /** base64 (standard alphabet, padded) */
  payloads: string[];
}

export function poolToFile(
  p: PayloadPool,
  layout: { id: string; name: string },
  headers: Record<string, string>,
): PoolFile {
  const payloads: string[] = [];
  for (let i = 0; i < poolCount(p); i++) payloads.push(bytesToBase64(poolPayload(p, i)));
  return { schema: POOL_SCHEMA, layout, format: p.format, seed: p.seed, headers, stride: p.stride, payloads };
}

export class PoolFileError extends Error {
  override readonly name = "PoolFileError";
}

export function poolFromFile(json: unknown): { file: PoolFile; payloads: Uint8Array[] } {
  const f = json as Partial<PoolFile> | null;
  if (!f || typeof f !== "object" || f.schema !== POOL_SCHEMA) throw new PoolFileError(`not a ${POOL_SCHEMA} file`);
  if (!Array.isArray(f.payloads) || !f.payloads.every((x) => typeof x === "string"))
    throw new PoolFileError("payloads must be an array of base64 strings");
  const payloads = f.payloads.map((s, i) => {
    const b = base64ToBytes(s);
    if (!b) throw new PoolFileError(`payload ${i} is not base64`);
    return b;
  });
  return { file: f as PoolFile, payloads };
}
