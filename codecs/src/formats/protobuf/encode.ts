// Compiles a message encoder: one writer per layout field, in field-number order, into a shared Writer.
import type { ProtoField, ProtoMessage } from "./model.ts";
import { nestedType, wireFacts, type Reflection } from "./reflect.ts";
import { encodeFail, putValue, type PutValue } from "./values.ts";
import type { Writer } from "./writer.ts";
import type { FieldValue, ScalarValue, TypedRecord } from "../../layout/values.ts";
import type { FieldSizer } from "../sizer.ts";

/** Same shape as PutValue so plain scalars need no wrapper: one call per field on the hot path. */
type FieldWriter = (w: Writer, v: FieldValue, tag: number, implicit: boolean, path: string) => void;
export type MessageEncoder = (rec: TypedRecord, w: Writer) => void;

const tagOf = (number: number, wireType: number) => ((number << 3) | wireType) >>> 0;

function isRecord(v: FieldValue): v is TypedRecord {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** Error paths use keys the way RecordError does: "gps.lat", "acc[1]". */
const keyPath = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

interface Compiled {
  write: FieldWriter;
  tag: number;
  implicit: boolean;
}

function arrayChecker(group: ProtoField[], path: string): (v: FieldValue) => ScalarValue[] {
  const t = group[0]!.source.type;
  const fixedCount = t.kind === "array" && t.fixed ? t.maxCount : -1;
  const maxCount = t.kind === "array" ? t.maxCount : 0;
  const optional = group[0]!.source.presence === "optional";
  return (v) => {
    if (!Array.isArray(v)) encodeFail(path, "expected an array");
    // proto3 has no presence for repeated fields: an empty one is indistinguishable from an absent one
    if (optional && v.length === 0)
      encodeFail(path, "an empty optional array reads back as absent in protobuf; omit it or make the field required");
    if (fixedCount >= 0 ? v.length !== fixedCount : v.length > maxCount)
      encodeFail(
        path,
        fixedCount >= 0
          ? `needs exactly ${fixedCount} elements, got ${v.length}`
          : `holds at most ${maxCount} elements, got ${v.length}`,
      );
    return v as ScalarValue[];
  };
}

function compileField(group: ProtoField[], type: Reflection, path: string): Compiled {
  const first = group[0]!;
  const facts = wireFacts(type, first);

  if (first.message) {
    const encodeSub = messageEncoder(first.message, nestedType(type, first), path);
    return {
      tag: tagOf(first.number, 2),
      implicit: false,
      write: (w, v, tag) => {
        if (!isRecord(v)) encodeFail(path, "expected an object");
        w.varint32(tag);
        const start = w.openLength();
        encodeSub(v, w);
        w.endLength(start);
      },
    };
  }

  const put: PutValue = putValue(first.value!);
  const items = arrayChecker(group, path);

  if (first.element) {
    // expanded array: element j is its own scalar field number n + j (the paper's acc_x, acc_y, acc_z)
    const tags = group.map((g) => tagOf(g.number, wireFacts(type, g).wireType));
    const paths = group.map((_, j) => `${path}[${j}]`);
    return {
      tag: 0,
      implicit: !facts.hasPresence,
      write: (w, v, _tag, implicit) => {
        const a = items(v);
        for (let j = 0; j < tags.length; j++) put(w, a[j], tags[j]!, implicit, paths[j]!);
      },
    };
  }

  if (first.label === "repeated") {
    if (facts.packed) {
      return {
        tag: tagOf(first.number, 2),
        implicit: false,
        write: (w, v, tag) => {
          const a = items(v);
          // proto3 writes nothing for an empty repeated field
          if (a.length === 0) return;
          w.varint32(tag);
          const start = w.openLength();
          for (let i = 0; i < a.length; i++) put(w, a[i], -1, false, path);
          w.endLength(start);
        },
      };
    }
    return {
      tag: tagOf(first.number, facts.wireType),
      implicit: false,
      write: (w, v, tag) => {
        const a = items(v);
        for (let i = 0; i < a.length; i++) put(w, a[i], tag, false, path);
      },
    };
  }

  return { tag: tagOf(first.number, facts.wireType), implicit: !facts.hasPresence, write: put as FieldWriter };
}

/** The message's field writers in wire (field-number) order, shared by the encoder and the size-only path. */
export function compileMessage(msg: ProtoMessage, type: Reflection, parent = "") {
  // msg.fields is in number order; an expanded array's element fields are consecutive and stay together
  const groups: ProtoField[][] = [];
  for (const f of msg.fields) {
    const last = groups[groups.length - 1];
    if (f.element && f.element.index > 0 && last && last[0]!.source === f.source) last.push(f);
    else groups.push([f]);
  }
  const compiled = groups.map((g) => compileField(g, type, keyPath(parent, g[0]!.source.key)));
  return {
    n: groups.length,
    keys: groups.map((g) => g[0]!.source.key),
    paths: groups.map((g) => keyPath(parent, g[0]!.source.key)),
    required: groups.map((g) => g[0]!.source.presence === "required"),
    writes: compiled.map((c) => c.write),
    tags: compiled.map((c) => c.tag),
    implicit: compiled.map((c) => c.implicit),
  };
}

export type MessagePlan = ReturnType<typeof compileMessage>;

export function messageEncoder(msg: ProtoMessage, type: Reflection, parent = ""): MessageEncoder {
  return encoderOf(compileMessage(msg, type, parent));
}

export function encoderOf(plan: MessagePlan): MessageEncoder {
  const { n, keys, paths, required, writes, tags, implicit } = plan;
  return (rec, w) => {
    for (let i = 0; i < n; i++) {
      const v = rec[keys[i]!];
      if (v === undefined) {
        if (required[i]) encodeFail(paths[i]!, "is required");
        continue;
      }
      writes[i]!(w, v, tags[i]!, implicit[i]!, paths[i]!);
    }
  };
}

/**
 * Size-only: a top-level message is its fields one after another with nothing around them, so each
 * field's bytes are what its own writer produces into a scratch writer.
 */
export function messageSizer(plan: MessagePlan, scratch: Writer): FieldSizer {
  const { keys, paths, required, writes, tags, implicit } = plan;
  return {
    keys,
    field(rec, i) {
      const v = rec[keys[i]!];
      if (v === undefined) {
        if (required[i]) encodeFail(paths[i]!, "is required");
        return 0;
      }
      scratch.pos = 0;
      writes[i]!(scratch, v, tags[i]!, implicit[i]!, paths[i]!);
      return scratch.pos;
    },
    total: (sum) => sum,
  };
}
