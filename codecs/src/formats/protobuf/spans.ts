// Byte attribution for the byte map: walks encoded bytes and labels tags, length prefixes and values.
import type { Span } from "../types.ts";
import type { ProtoMessage } from "./model.ts";
import { Reader } from "./reader.ts";

interface SpanField {
  path: string;
  sub: SpanMap | undefined;
}
type SpanMap = Map<number, SpanField>;

export function spanMap(msg: ProtoMessage): SpanMap {
  const m: SpanMap = new Map();
  for (const f of msg.fields) m.set(f.number, { path: f.path, sub: f.message ? spanMap(f.message) : undefined });
  return m;
}

function walk(map: SpanMap, r: Reader, out: Span[]): void {
  while (r.pos < r.end) {
    const tagStart = r.pos;
    const tag = r.varint();
    const f = map.get(tag >>> 3);
    const field = f?.path ?? "";
    out.push({ start: tagStart, end: r.pos, field, role: "key" });
    let valueStart = r.pos;
    switch (tag & 7) {
      case 0:
        r.varint();
        break;
      case 1:
        r.pos += 8;
        break;
      case 5:
        r.pos += 4;
        break;
      case 2: {
        const n = r.length();
        out.push({ start: valueStart, end: r.pos, field, role: "length" });
        valueStart = r.pos;
        if (f?.sub) {
          const outer = r.end;
          r.end = r.pos + n;
          walk(f.sub, r, out);
          r.end = outer;
          continue;
        }
        r.pos += n;
        break;
      }
      default:
        r.fail(`unexpected wire type ${tag & 7} while mapping spans`, tagStart);
    }
    // an empty string or packed array has a tag and a zero length but no value bytes
    if (r.pos > valueStart) out.push({ start: valueStart, end: r.pos, field, role: "value" });
  }
}

/** Spans of a message this codec encoded (tags → key, length prefixes → length, payload → value). */
export function spansOf(bytes: Uint8Array, map: SpanMap): Span[] {
  const r = new Reader();
  r.reset(bytes);
  const out: Span[] = [];
  walk(map, r, out);
  return out;
}
