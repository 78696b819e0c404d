// The field types a designer can drag in, each with the type, key stem and sample defaults a new field starts from.
import type { Field, FieldType } from "#codecs";
import { positionParts, type NewPart } from "./position.ts";

export interface PaletteItem {
  id: string;
  label: string;
  /** what the palette tooltip and screen readers say */
  hint: string;
  section: "Basic" | "Integers" | "Numbers" | "Text & bytes" | "Structure";
  keyStem: string;
  make(): FieldType;
  /** an entry that adds several fields at once (a position: latitude and longitude); not a type to switch to */
  parts?(): NewPart[];
}

/** The names a new enum starts with, until the user names the device's states. */
export const ENUM_PLACEHOLDERS = ["STATE_A", "STATE_B"] as const;

const int = (bits: 8 | 16 | 32 | 64, signed: boolean): PaletteItem => ({
  id: `${signed ? "" : "u"}int${bits}`,
  label: `${signed ? "" : "u"}int${bits}`,
  hint: `${signed ? "Signed" : "Unsigned"} ${bits}-bit integer`,
  section: "Integers",
  keyStem: `${signed ? "i" : "u"}${bits}`,
  make: () => ({ kind: "int", bits, signed }),
});

export const PALETTE: readonly PaletteItem[] = [
  {
    id: "bool",
    label: "bool",
    hint: "true / false flag",
    section: "Basic",
    keyStem: "flag",
    make: () => ({ kind: "bool" }),
  },
  {
    id: "enum",
    label: "enum",
    hint: "One of a list of named values",
    section: "Basic",
    keyStem: "state",
    make: () => ({
      kind: "enum",
      // placeholders that read as such (OFF/ON looked like a real, finished choice); the inspector asks for names
      values: ENUM_PLACEHOLDERS.map((name, value) => ({ name, value })),
    }),
  },
  {
    id: "timestamp",
    label: "timestamp",
    hint: "Time as epoch seconds or formatted text",
    section: "Basic",
    keyStem: "ts",
    make: () => ({ kind: "timestamp", encoding: "epoch", resolution: 1 }),
  },
  int(8, false),
  int(16, false),
  int(32, false),
  int(64, false),
  int(8, true),
  int(16, true),
  int(32, true),
  int(64, true),
  {
    id: "float32",
    label: "float32",
    hint: "32-bit IEEE float",
    section: "Numbers",
    keyStem: "value",
    make: () => ({ kind: "float", bits: 32 }),
  },
  {
    id: "float64",
    label: "float64",
    hint: "64-bit IEEE float",
    section: "Numbers",
    keyStem: "value",
    make: () => ({ kind: "float", bits: 64 }),
  },
  {
    id: "fixed",
    label: "fixed",
    hint: "Scaled integer: value = raw × scale + offset",
    section: "Numbers",
    keyStem: "value",
    make: () => ({ kind: "fixed", scale: 0.01, offset: 0, min: -100, max: 100 }),
  },
  {
    id: "position",
    // short enough for a palette chip; the hint says it is a position
    label: "lat/lon",
    hint: "Position: latitude and longitude as scaled integers, precise to 10 m (change it in the inspector)",
    section: "Numbers",
    keyStem: "latitude",
    make: () => positionParts()[0]!.type,
    parts: () => positionParts(),
  },
  {
    id: "string",
    label: "string",
    hint: "Text up to a maximum length",
    section: "Text & bytes",
    keyStem: "text",
    make: () => ({ kind: "string", maxLength: 16, fixed: false, charset: "utf8" }),
  },
  {
    id: "bytes",
    label: "bytes",
    hint: "Raw bytes up to a maximum length",
    section: "Text & bytes",
    keyStem: "data",
    make: () => ({ kind: "bytes", maxLength: 8, fixed: false }),
  },
  {
    id: "array",
    label: "array",
    hint: "Repeated values of one scalar type",
    section: "Structure",
    keyStem: "values",
    make: () => ({ kind: "array", of: { kind: "int", bits: 16, signed: true }, maxCount: 3, fixed: true }),
  },
  {
    id: "group",
    label: "group",
    hint: "Nested fields (a sub-message)",
    section: "Structure",
    keyStem: "group",
    make: () => ({ kind: "group", fields: [] }),
  },
];

export function paletteItem(id: string): PaletteItem | undefined {
  return PALETTE.find((p) => p.id === id);
}

let counter = 0;
/** Unique within a session and across reloads (time prefix), short enough to read in a byte map tooltip. */
export function newFieldId(): string {
  counter = (counter + 1) % 1296;
  return `f${Date.now().toString(36).slice(-5)}${counter.toString(36).padStart(2, "0")}`;
}

export function newField(item: PaletteItem, key: string): Field {
  return { id: newFieldId(), key, name: key, presence: "required", type: item.make() };
}

/** The entries that are a type of one field (the inspector's type selector offers these). */
export const FIELD_TYPES: readonly PaletteItem[] = PALETTE.filter((p) => !p.parts);

/** The palette entry a field type corresponds to, for the type selector in the inspector. */
export function paletteIdOf(t: FieldType): string {
  switch (t.kind) {
    case "int":
      return `${t.signed ? "" : "u"}int${t.bits}`;
    case "float":
      return `float${t.bits}`;
    default:
      return t.kind;
  }
}
