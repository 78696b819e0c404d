// Compiles a message decoder: a slot per field number, values collected per layout field, then checked
// and assembled in layout order. Unknown fields are skipped (the protobuf way: newer senders stay readable).
import type { ProtoField, ProtoMessage } from "./model.ts";
import { Reader } from "./reader.ts";
import { nestedType, wireFacts, type Reflection } from "./reflect.ts";
import { readValue, type ReadValue } from "./values.ts";
import type { Field } from "../../layout/schema.ts";
import type { FieldValue, ScalarValue, TypedRecord } from "../../layout/values.ts";

const SCALAR = 0;
const ELEMENT = 1;
const REPEATED = 2;
const MESSAGE = 3;

interface Slot {
  kind: number;
  /** index of the layout field in the message */
  index: number;
  wireType: number;
  /** repeated numerics also accept the packed form (and scalars the unpacked one), as parsers must */
  packed: boolean;
  read: ReadValue;
  element: number;
  count: number;
  maxCount: number;
  sub: MessageDecoder | undefined;
  path: string;
}

/** Collected values of one message: one entry per layout field, in layout order. */
type Values = unknown[];

export interface MessageDecoder {
  size: number;
  slot(number: number): Slot | undefined;
  /** checks presence and counts, fills proto3 defaults, and builds the typed record */
  build(vals: Values, r: Reader): TypedRecord;
}

const DENSE_LIMIT = 4096;
const SCRATCH_BYTES: Record<number, Uint8Array> = {
  0: Uint8Array.of(0),
  1: new Uint8Array(8),
  2: Uint8Array.of(0),
  5: new Uint8Array(4),
};

/** What a required field decodes to when the wire omits it: the reader's value for proto3's zero, or why that is not allowed. */
function zeroValue(read: ReadValue, wireType: number): { ok: true; value: ScalarValue } | { ok: false; why: string } {
  const r = new Reader();
  r.reset(SCRATCH_BYTES[wireType]!);
  try {
    return { ok: true, value: read(r) };
  } catch (e) {
    return {
      ok: false,
      why: e instanceof Error ? e.message.replace(/^protobuf: /, "").replace(/ \(at byte \d+\)$/, "") : String(e),
    };
  }
}

type Finish = (v: unknown, r: Reader) => FieldValue | undefined;

function finisher(
  group: ProtoField[],
  type: Reflection,
  decoder: MessageDecoder | undefined,
  read: ReadValue | undefined,
): Finish {
  const first = group[0]!;
  const src: Field = first.source;
  const required = src.presence === "required";
  const path = first.keyPath;
  if (decoder) {
    return (v, r) =>
      v === undefined
        ? required
          ? decoder.build(new Array(decoder.size), r)
          : undefined
        : decoder.build(v as Values, r);
  }
  const facts = wireFacts(type, first);
  const zero = zeroValue(read!, facts.wireType);
  const fresh = (): ScalarValue => (zero.ok ? (zero.value instanceof Uint8Array ? new Uint8Array(0) : zero.value) : 0);
  const missing = (r: Reader, what: string): never =>
    r.fail(`${what} is missing${zero.ok ? "" : ` and proto3's default is not valid (${zero.why})`}`, r.end);
  const t = src.type;
  if (first.element) {
    const count = group.length;
    return (v, r) => {
      if (v === undefined) {
        if (!required) return undefined;
        if (!zero.ok) missing(r, `${path}[0]`);
        return Array.from({ length: count }, fresh);
      }
      const items = v as (ScalarValue | undefined)[];
      for (let j = 0; j < count; j++) {
        if (items[j] !== undefined) continue;
        // explicit presence: an optional expanded array arrives whole or not at all
        if (!required || !zero.ok) missing(r, `${path}[${j}]`);
        items[j] = fresh();
      }
      return items as ScalarValue[];
    };
  }
  if (first.label === "repeated") {
    const fixed = t.kind === "array" && t.fixed ? t.maxCount : -1;
    return (v, r) => {
      // proto3 cannot tell an empty repeated field from an absent one: optional + empty reads as absent
      if (v === undefined && !required) return undefined;
      const items = (v ?? []) as ScalarValue[];
      if (fixed >= 0 && items.length !== fixed)
        r.fail(`${path}: needs exactly ${fixed} elements, got ${items.length}`, r.end);
      return items;
    };
  }
  if (!required) return (v) => v as ScalarValue | undefined;
  return (v, r) => {
    if (v !== undefined) return v as ScalarValue;
    if (!zero.ok) missing(r, path);
    return fresh();
  };
}

export function messageDecoder(msg: ProtoMessage, type: Reflection): MessageDecoder {
  const layoutFields = msg.layoutFields;
  const indexOf = new Map(layoutFields.map((f, i) => [f, i]));
  const groups = new Map<Field, ProtoField[]>();
  for (const f of msg.fields) {
    const g = groups.get(f.source);
    if (g) g.push(f);
    else groups.set(f.source, [f]);
  }
  const slots = new Map<number, Slot>();
  const finishers: Finish[] = new Array(layoutFields.length);
  for (const [src, group] of groups) {
    const index = indexOf.get(src)!;
    const first = group[0]!;
    const sub = first.message ? messageDecoder(first.message, nestedType(type, first)) : undefined;
    const read = first.value ? readValue(first.value, first.keyPath) : undefined;
    finishers[index] = finisher(group, type, sub, read);
    const t = src.type;
    for (const f of group) {
      const facts = wireFacts(type, f);
      slots.set(f.number, {
        kind: sub ? MESSAGE : f.element ? ELEMENT : f.label === "repeated" ? REPEATED : SCALAR,
        index,
        wireType: facts.wireType,
        packed: facts.packed,
        read: read ?? (() => 0),
        element: f.element?.index ?? 0,
        count: f.element?.count ?? 0,
        maxCount: t.kind === "array" ? t.maxCount : 0,
        sub,
        path: f.keyPath,
      });
    }
  }
  const maxNumber = Math.max(0, ...slots.keys());
  const dense: (Slot | undefined)[] = new Array(Math.min(maxNumber, DENSE_LIMIT) + 1).fill(undefined);
  for (const [n, s] of slots) if (n < dense.length) dense[n] = s;
  const keys = layoutFields.map((f) => f.key);
  const n = layoutFields.length;
  // required scalars that arrived need no finishing: the build loop skips their finisher call
  const plain = layoutFields.map(
    (f) => f.presence === "required" && f.type.kind !== "group" && f.type.kind !== "array",
  );
  const optional = layoutFields.map((f) => f.presence === "optional");
  const optionalCount = optional.filter(Boolean).length;
  // Records are cloned from a template holding exactly the present keys in layout order: a clone
  // plus in-place stores is several times cheaper than growing an object key by key. One template
  // per presence pattern of optional fields.
  const templates = new Map<number, TypedRecord>();
  const template = (mask: number): TypedRecord => {
    const make = (): TypedRecord => {
      const t: TypedRecord = {};
      let bit = 1;
      for (let i = 0; i < n; i++) {
        if (optional[i]) {
          if (mask & bit) t[keys[i]!] = 0;
          bit <<= 1;
        } else t[keys[i]!] = 0;
      }
      return t;
    };
    // V8 detail with a 3–10× effect: the first values written into clones generalise the template's
    // hidden class and leave the template on a retired one, so every later clone is migrated on the
    // slow path. Writing a string into a probe clone generalises the fields once; a template built
    // afterwards sits on the final hidden class.
    const probe = { ...make() };
    for (const k of Object.keys(probe)) probe[k] = "";
    const t = make();
    if (templates.size < 256) templates.set(mask, t);
    return t;
  };
  return {
    size: n,
    slot: maxNumber < dense.length ? (no) => dense[no] : (no) => (no < dense.length ? dense[no] : slots.get(no)),
    build(vals, r) {
      let mask = 0;
      let bit = 1;
      for (let i = 0; i < n; i++) {
        const v = vals[i];
        if (v === undefined || !plain[i]) vals[i] = finishers[i]!(v, r);
        if (optional[i]) {
          if (vals[i] !== undefined) mask |= bit;
          bit <<= 1;
        }
      }
      let rec: TypedRecord;
      if (optionalCount <= 30) {
        rec = { ...(templates.get(mask) ?? template(mask)) };
        for (let i = 0; i < n; i++) {
          const v = vals[i];
          if (v !== undefined) rec[keys[i]!] = v as FieldValue;
        }
      } else {
        rec = {};
        for (let i = 0; i < n; i++) {
          const v = vals[i];
          if (v !== undefined) rec[keys[i]!] = v as FieldValue;
        }
      }
      return rec;
    },
  };
}

/** Reads fields until r.end into vals; repeated occurrences merge the way protobuf parsers do (last scalar wins). */
export function readFields(d: MessageDecoder, r: Reader, vals: Values): void {
  while (r.pos < r.end) {
    const at = r.pos;
    const tag = r.varint();
    if (r.hi !== 0) r.fail("field tag out of range", at);
    const no = tag >>> 3;
    const wt = tag & 7;
    if (no === 0) r.fail("field number 0", at);
    const s = d.slot(no);
    if (s === undefined) {
      r.skip(wt, no);
      continue;
    }
    switch (s.kind) {
      case SCALAR:
        if (wt !== s.wireType) wrongWire(r, s, wt, at);
        vals[s.index] = s.read(r);
        break;
      case ELEMENT: {
        if (wt !== s.wireType) wrongWire(r, s, wt, at);
        let items = vals[s.index] as ScalarValue[] | undefined;
        if (items === undefined) vals[s.index] = items = new Array(s.count).fill(undefined);
        items[s.element] = s.read(r);
        break;
      }
      case REPEATED: {
        let items = vals[s.index] as ScalarValue[] | undefined;
        if (items === undefined) vals[s.index] = items = [];
        if (wt === 2 && s.packed) {
          const len = r.length();
          const stop = r.pos + len;
          const outer = r.end;
          r.end = stop;
          while (r.pos < stop) {
            if (items.length >= s.maxCount) r.fail(`${s.path}: more than ${s.maxCount} elements`);
            items.push(s.read(r));
          }
          r.end = outer;
        } else {
          if (wt !== s.wireType) wrongWire(r, s, wt, at);
          if (items.length >= s.maxCount) r.fail(`${s.path}: more than ${s.maxCount} elements`, at);
          items.push(s.read(r));
        }
        break;
      }
      default: {
        if (wt !== 2) wrongWire(r, s, wt, at);
        const len = r.length();
        const stop = r.pos + len;
        const sub = s.sub!;
        let inner = vals[s.index] as Values | undefined;
        if (inner === undefined) vals[s.index] = inner = new Array(sub.size);
        const outer = r.end;
        r.end = stop;
        readFields(sub, r, inner);
        r.end = outer;
      }
    }
  }
}

function wrongWire(r: Reader, s: Slot, wt: number, at: number): never {
  return r.fail(`${s.path}: wire type ${wt}, expected ${s.wireType}${s.packed ? " or 2 (packed)" : ""}`, at);
}
