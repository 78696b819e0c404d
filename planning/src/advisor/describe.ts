// Titles and explanations of a change, in the terms of the field it touches.
import type { Field, FieldValue, Layout, ScalarType } from "#codecs";
import { formatTimestamp } from "#codecs/plans";
import { fieldBits } from "./declared.ts";
import { applyTransform } from "./transforms.ts";
import { requireField } from "./tree.ts";
import type { Transform } from "./types.ts";
import { isLatLon, lossText, METRES_PER_DEGREE, short } from "./units.ts";

export interface Words {
  title: string;
  detail: string;
  caveat: string | null;
}

const day = (epoch: number) => formatTimestamp(epoch, "YYYY-MM-DD");

function typeWords(t: ScalarType): string {
  switch (t.kind) {
    case "float":
      return `float${t.bits}`;
    case "fixed":
      return `fixed-point ${short(t.scale)}`;
    case "timestamp":
      return t.encoding === "text" ? `text "${t.textFormat}"` : `epoch seconds at ${short(t.resolution)} s`;
    default:
      return t.kind;
  }
}

function scalarOf(f: Field): ScalarType | undefined {
  return f.type.kind === "array" ? f.type.of : f.type.kind === "group" ? undefined : f.type;
}

/** Bits the field takes bit-packed, before and after: the one size that does not depend on the chosen format. */
function bitsWords(layout: Layout, t: Transform): string {
  const b = fieldBits(layout, t.fieldId);
  let a: number | undefined;
  try {
    a = fieldBits(applyTransform(layout, t), t.fieldId);
  } catch {
    a = undefined;
  }
  return b !== undefined && a !== undefined
    ? ` (bit-packed: ${b} → ${a} bits)`
    : b !== undefined
      ? ` (bit-packed: ${b} bits)`
      : "";
}

export function describeTransform(
  layout: Layout,
  t: Transform,
  observed: readonly (FieldValue | undefined)[] = [],
): Words {
  const f = requireField(layout, t.fieldId).field;
  const bits = bitsWords(layout, t);
  switch (t.kind) {
    case "move-to-status": {
      const v = observed.find((x) => x !== undefined);
      return {
        title: `Move ${f.name} to a status message`,
        detail: `Every sample holds the same value${v !== undefined && typeof v !== "object" ? ` (${JSON.stringify(v)})` : ""}: send it in a rarer status message (once a day, or when it changes) instead of in every reading${bits}.`,
        caveat: "arrives only with the status message; a change must trigger one",
      };
    }
    case "split-prefix":
      return {
        title: `Send ${f.name} without its prefix "${t.prefix}"`,
        detail: `Every sample starts with "${t.prefix}": it moves to the status message and the reading carries ${t.rest.as === "int" ? `the ${t.rest.digits} remaining digits as an integer` : `the remaining ${t.rest.maxLength} characters at most`}${bits}.`,
        caveat: `values that do not start with "${t.prefix}" can no longer be sent`,
      };
    case "string-charset":
      return {
        title: `${f.name}: ${f.type.kind === "string" ? f.type.charset : "text"} → ${t.charset} characters`,
        detail: `Every sample only uses ${t.charset} characters, which bit-packing stores in fewer bits each${bits}.`,
        caveat: `characters outside ${t.charset} can no longer be sent`,
      };
    case "string-to-enum":
      return {
        title: `${f.name}: string → enum of ${t.values.length} value${t.values.length === 1 ? "" : "s"}`,
        detail: `The samples only hold ${t.values.map((v) => JSON.stringify(v)).join(", ")}: an index into that list replaces the text${bits}.`,
        caveat: "other values can no longer be sent",
      };
    case "fixed-point": {
      const s = scalarOf(f);
      const ll = isLatLon(f);
      const unit = f.unit ? ` ${f.unit}` : "";
      const what = ll
        ? `scaled integer, ${short(t.step)}° (≈ ${short(t.step * METRES_PER_DEGREE)} m)`
        : `fixed-point ${short(t.step)}${unit}`;
      return {
        title: `${f.name}: ${s ? typeWords(s) : "value"} → ${what}`,
        detail: `Rounded to multiples of ${short(t.step)}${unit}${f.type.kind === "array" ? " (every element)" : ""}; worst error ${lossText(f, t.step / 2)}${bits}.`,
        caveat: null,
      };
    }
    case "narrow-range": {
      const unit = f.unit ? ` ${f.unit}` : "";
      const s = scalarOf(f);
      const from =
        s && "min" in s && s.min !== undefined && s.max !== undefined ? `${short(s.min)}…${short(s.max)}` : "";
      return {
        title: `${f.name}: range ${from ? `${from} → ` : ""}${short(t.min)}…${short(t.max)}${unit}`,
        detail: `Every sample${f.type.kind === "array" ? " element" : ""} lies in ${short(t.min)}…${short(t.max)}${unit} (the values seen, with a margin): fewer codes need fewer bits${bits}.`,
        caveat: `values outside ${short(t.min)}…${short(t.max)}${unit} can no longer be sent`,
      };
    }
    case "array-length": {
      const max = f.type.kind === "array" ? f.type.maxCount : t.maxCount;
      const seen = Math.max(0, ...observed.map((v) => (Array.isArray(v) ? v.length : 0)));
      const drops = seen > t.maxCount;
      return {
        title: drops
          ? `${f.name}: send only the first ${t.maxCount} of ${seen} values`
          : `${f.name}: at most ${t.maxCount} value${t.maxCount === 1 ? "" : "s"} instead of ${max}`,
        detail: drops
          ? `The last ${seen - t.maxCount} value${seen - t.maxCount === 1 ? " is" : "s are"} left out of every message${bits}.`
          : `No sample holds more than ${t.maxCount}: the length field and the room for more shrink${bits}.`,
        caveat: drops
          ? "information lost: the values left out are not sent at all"
          : `more than ${t.maxCount} values can no longer be sent`,
      };
    }
    case "short-key":
      return {
        title: `${f.name}: key "${f.key}" → "${t.key}"`,
        detail: `The key is written in every message: ${f.key.length - t.key.length} character${f.key.length - t.key.length === 1 ? "" : "s"} fewer each time. Integer keys (shorter still in CBOR and MessagePack) are not supported by the codecs yet.`,
        caveat: `receivers must read "${t.key}" instead of "${f.key}"`,
      };
    case "remove-field":
      return {
        title: `Leave ${f.name} out`,
        detail: `Not sent at all${bits}.`,
        caveat: "information lost: the field's values are gone",
      };
    case "timestamp": {
      const s = scalarOf(f);
      return {
        title: `${f.name}: ${s ? typeWords(s) : "time"} → seconds since ${day(t.min)} at ${short(t.resolution)} s`,
        detail: `Epoch seconds from ${day(t.min)} to ${day(t.max)} in steps of ${short(t.resolution)} s${bits}.`,
        caveat: `times after ${day(t.max)} cannot be sent`,
      };
    }
  }
}
