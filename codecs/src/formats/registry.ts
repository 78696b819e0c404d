// Every wire format by id: the one list the UI, CLI, services and tests iterate. A format is its folder
// (formats/<id>/: the codec and format.ts, which declares everything else about it) plus its line here;
// the id is the key, and the order here is the order every list shows (docs/design/add-a-format.md).
import { bitpackedFormat } from "./bitpacked/format.ts";
import { cborFormat } from "./cbor/format.ts";
import { cborIntFormat } from "./cbor-int/format.ts";
import { flatbuffersFormat } from "./flatbuffers/format.ts";
import { jsonFormat } from "./json/format.ts";
import { msgpackFormat } from "./msgpack/format.ts";
import { msgpackIntFormat } from "./msgpack-int/format.ts";
import { protobufFormat } from "./protobuf/format.ts";
import { psonFormat } from "./pson/format.ts";
import { sbeFormat } from "./sbe/format.ts";
import { structFormat } from "./struct/format.ts";
import { structZlibFormat } from "./struct-zlib/format.ts";
import type { Codec, CompiledCodec, FormatExports, FormatModule } from "./types.ts";
import type { Layout } from "../layout/schema.ts";

export const FORMAT_MODULES = {
  json: jsonFormat,
  cbor: cborFormat,
  "cbor-int": cborIntFormat,
  msgpack: msgpackFormat,
  "msgpack-int": msgpackIntFormat,
  protobuf: protobufFormat,
  struct: structFormat,
  "struct-zlib": structZlibFormat,
  sbe: sbeFormat,
  flatbuffers: flatbuffersFormat,
  pson: psonFormat,
  bitpacked: bitpackedFormat,
} as const satisfies Readonly<Record<string, FormatModule>>;

export type FormatId = keyof typeof FORMAT_MODULES;

/** The ids in registry order; a tuple type, so z.enum(FORMAT_IDS) is the FormatId union. */
export const FORMAT_IDS = Object.keys(FORMAT_MODULES) as readonly string[] as readonly [FormatId, ...FormatId[]];

export const CODECS: Record<FormatId, Codec> = Object.fromEntries(
  FORMAT_IDS.map((id) => [id, FORMAT_MODULES[id].codec]),
) as Record<FormatId, Codec>;

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
