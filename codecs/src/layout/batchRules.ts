// The rules of a layout's batch (issue #27) zod cannot express: which fields may repeat per reading, the
// interval, the count, the time field and keyframes. Told like every other layout issue (messages.ts).
import { LIMITS } from "./limits.ts";
import { showNumber, showValue } from "./messages.ts";
import type { Batch, Field, Layout } from "./schema.ts";

export interface BatchRuleSink {
  label(path: string): string;
  add(path: string, message: string): void;
}

const article = (kind: string) => `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}`;
const named = (f: Field) => `"${f.name || f.key}"`;

/** Why a field cannot hold one value per reading, or null: every reading must carry the same leaves. */
function notRepeatable(f: Field, inside = ""): string | null {
  const what = inside ? `its field ${named(f)}` : "it";
  if (f.presence === "optional")
    return `${what} is optional; every reading carries each per-reading value, so make ${inside ? "that field" : "it"} required`;
  if (f.type.kind === "array" && !f.type.fixed)
    return `${what} is an array without a fixed count; every reading needs the same number of values (tick Fixed count)`;
  if (f.type.kind === "group")
    for (const c of f.type.fields) {
      const why = notRepeatable(c, "group");
      if (why) return why;
    }
  return null;
}

/** Does any leaf hold a number a rate can apply to? */
function holdsNumbers(f: Field): boolean {
  const t = f.type.kind === "array" ? f.type.of : f.type;
  if (t.kind === "group") return t.fields.some(holdsNumbers);
  return t.kind === "int" || t.kind === "float" || t.kind === "fixed" || t.kind === "timestamp";
}

function findNested(fields: readonly Field[], id: string, group?: Field): Field | undefined {
  for (const f of fields) {
    if (f.id === id && group) return group;
    if (f.type.kind === "group") {
      const hit = findNested(f.type.fields, id, group ?? f);
      if (hit) return hit;
    }
  }
  return undefined;
}

const positive = (v: number) => Number.isFinite(v) && v > 0;

export function checkBatch(layout: Layout, batch: Batch, r: BatchRuleSink): void {
  const top = new Map(layout.fields.map((f) => [f.id, f] as const));
  const seen = new Map<string, number>();
  if (batch.perReading.length === 0)
    r.add(
      "batch.perReading",
      "The batch has no per-reading fields; it needs at least one field whose value is taken at every reading.",
    );
  batch.perReading.forEach((p, i) => {
    const at = `batch.perReading[${i}]`;
    const label = r.label(`${at}.field`);
    const f = top.get(p.field);
    if (!f) {
      const group = findNested(layout.fields, p.field);
      r.add(
        `${at}.field`,
        group
          ? `${label} is ${showValue(p.field)}, a field inside the group ${named(group)}; only top-level fields repeat per reading, so choose the group itself.`
          : `${label} is ${showValue(p.field)}, which is no field of this layout; choose a top-level field.`,
      );
      return;
    }
    const first = seen.get(p.field);
    if (first !== undefined)
      r.add(`${at}.field`, `${label} (${named(f)}) is also per-reading field ${first + 1}; list each field once.`);
    else seen.set(p.field, i);
    const why = notRepeatable(f);
    if (why) r.add(`${at}.field`, `${label} (${named(f)}) cannot repeat per reading: ${why}.`);
    if (p.maxRate !== undefined) {
      const rate = r.label(`${at}.maxRate`);
      if (!positive(p.maxRate))
        r.add(
          `${at}.maxRate`,
          `${rate} is ${showNumber(p.maxRate)}; it must be more than 0, because it is the most ${named(f)} changes per second.`,
        );
      else if (!holdsNumbers(f))
        r.add(
          `${at}.maxRate`,
          `${rate} is set, but ${named(f)} is ${article(f.type.kind)} and holds no numbers; clear it.`,
        );
    }
  });

  if (!positive(batch.intervalSeconds))
    r.add(
      "batch.intervalSeconds",
      `Interval is ${showNumber(batch.intervalSeconds)} s; it must be more than 0 s, because it is the time between two readings.`,
    );

  const readings = batch.readings;
  if (readings.kind === "fixed") {
    const at = "batch.readings.count";
    const n = readings.count;
    const max = LIMITS.arrayCount.max;
    if (!Number.isInteger(n)) r.add(at, `Readings per message is ${showNumber(n)}; it must be a whole number.`);
    else if (n < 1) r.add(at, `Readings per message is ${showNumber(n)}; the least is 1.`);
    else if (n > max)
      r.add(
        at,
        `Readings per message is ${showNumber(n)}; the most is ${showNumber(max)}, because ${LIMITS.arrayCount.why}.`,
      );
  } else if (readings.platform.trim() === "")
    r.add("batch.readings.platform", "Platform is empty; choose the platform whose message the readings must fit.");

  if (batch.time !== undefined) {
    const f = top.get(batch.time);
    if (!f || !batch.perReading.some((p) => p.field === batch.time))
      r.add(
        "batch.time",
        `Time field is ${f ? named(f) : showValue(batch.time)}, which is not one of the per-reading fields; choose the per-reading timestamp.`,
      );
    else if (f.type.kind !== "timestamp")
      r.add(
        "batch.time",
        `Time field is ${named(f)}, ${article(f.type.kind)}; it must be a timestamp, because its readings are sent as a base time plus offsets.`,
      );
  }

  const k = batch.keyframeEvery;
  if (k !== undefined && (!Number.isInteger(k) || k < 1))
    r.add(
      "batch.keyframeEvery",
      `Keyframe every is ${showNumber(k)}; it must be a whole number of at least 1 (the reading count after which one is sent whole again).`,
    );
}
