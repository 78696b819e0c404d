// Every wire format by id: the one list the UI, CLI, services and tests iterate.
import { bitpackedCodec } from "./bitpacked/codec.ts";
import { cborCodec } from "./cbor/codec.ts";
import { jsonCodec } from "./json/codec.ts";
import { msgpackCodec } from "./msgpack/codec.ts";
import { protobufCodec } from "./protobuf/codec.ts";
import { psonCodec } from "./pson/codec.ts";
import { sbeCodec } from "./sbe/codec.ts";
import { structCodec } from "./struct/codec.ts";
import { structZlibCodec } from "./struct-zlib/codec.ts";
import { FORMAT_IDS, type Codec, type CompiledCodec, type FormatExports, type FormatId } from "./types.ts";
import type { Layout } from "../layout/schema.ts";

export const CODECS: Record<FormatId, Codec> = {
  json: jsonCodec,
  cbor: cborCodec,
  msgpack: msgpackCodec,
  protobuf: protobufCodec,
  struct: structCodec,
  "struct-zlib": structZlibCodec,
  sbe: sbeCodec,
  pson: psonCodec,
  bitpacked: bitpackedCodec,
};

/** Every format's full label, by id. */
export const FORMAT_LABELS: Record<FormatId, string> = Object.fromEntries(
  FORMAT_IDS.map((id) => [id, CODECS[id].info.label]),
) as Record<FormatId, string>;

/** A stored format id's label; an id this build does not know (an older run's) is shown as it is. */
export function formatLabel(id: string): string {
  return isFormatId(id) ? FORMAT_LABELS[id] : id;
}

/** The formats an exporter writes, in registry order. */
export function formatsWith(exporter: keyof FormatExports): FormatId[] {
  return FORMAT_IDS.filter((id) => CODECS[id].info.exports[exporter]);
}

export function isFormatId(s: string): s is FormatId {
  return (FORMAT_IDS as readonly string[]).includes(s);
}

const compiled = new WeakMap<Layout, Map<FormatId, CompiledCodec>>();

/** Compiles once per (layout object, format); layouts are immutable values, so identity is the cache key. */
export function codecFor(layout: Layout, format: FormatId): CompiledCodec {
  let m = compiled.get(layout);
  if (!m) compiled.set(layout, (m = new Map()));
  let c = m.get(format);
  if (!c) m.set(format, (c = CODECS[format].compile(layout)));
  return c;
}
