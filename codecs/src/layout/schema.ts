// The *.satlayout.json document: the one description every format, view and export is derived from.
import { z } from "zod";
import { LIMITS } from "./limits.ts";

export const LAYOUT_FORMAT = "satlayout";
export const LAYOUT_VERSION = 1;

/**
 * Text people read as a label (field, enum value and layout names, keys). That something must show is a
 * rule of validate.ts, not of the shape: a project saved before the rule still opens, with the name marked.
 */
const labelText = (max: number) => z.string().max(max);

const identifier = z
  .string()
  .min(1)
  .max(LIMITS.identifier.max)
  .regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, "must start with a letter or _ and hold only letters, digits, _ or -");

const bounded = (l: { min?: number; max: number }) => {
  const n = z.number();
  return l.min === undefined ? n.max(l.max) : n.min(l.min).max(l.max);
};
const count = (l: { min?: number; max: number }) => bounded(l).int();

/** How a value is written in the self-describing formats (JSON, CBOR, MessagePack, PSON). */
export const textRepSchema = z.discriminatedUnion("as", [
  z.strictObject({ as: z.literal("number") }),
  z.strictObject({
    as: z.literal("string"),
    /** fixed number of decimals for numbers (Python's f"{v:.Nf}") */
    decimals: count(LIMITS.textDecimals).optional(),
    /** minimum digits of the integer part, zero padded ("06") */
    pad: count(LIMITS.textPad).optional(),
    /** arrays: one string, elements joined by this separator */
    separator: z.string().max(LIMITS.separator.max).optional(),
  }),
]);
export type TextRep = z.infer<typeof textRepSchema>;

export const intBits = z.literal([8, 16, 32, 64]);

const boolType = z.strictObject({ kind: z.literal("bool") });
const enumType = z.strictObject({
  kind: z.literal("enum"),
  values: z
    .array(z.strictObject({ name: labelText(LIMITS.identifier.max), value: count(LIMITS.enumValue) }))
    .min(1)
    .max(LIMITS.enumValues.max),
});
const intType = z.strictObject({
  kind: z.literal("int"),
  bits: intBits,
  signed: z.boolean(),
  /** optional tighter range: used by bit-packing, nanopb int_size and validation */
  min: z.number().optional(),
  max: z.number().optional(),
});
const floatType = z.strictObject({
  kind: z.literal("float"),
  bits: z.literal([32, 64]),
  min: z.number().optional(),
  max: z.number().optional(),
  /** resolution the value is meaningful to; drives bit-packing and text decimals */
  precision: z.number().positive().optional(),
});
const fixedType = z.strictObject({
  kind: z.literal("fixed"),
  /** value = raw × scale + offset */
  scale: z.number().positive(),
  offset: z.number().default(0),
  min: z.number(),
  max: z.number(),
});
const timestampType = z.strictObject({
  kind: z.literal("timestamp"),
  /**
   * epoch: seconds since 1970 as an integer (or a float when resolution < 1);
   * text: the formatted string travels in every format (the paper's "DDMMYY hhmmss.s").
   */
  encoding: z.enum(["epoch", "text"]),
  /** strftime-like tokens: DD MM YY YYYY hh mm ss s (tenths) ss.sss… */
  textFormat: z.string().max(LIMITS.timestampFormat.max).optional(),
  /** seconds; 1 = whole seconds, 0.1 = tenths */
  resolution: z.number().positive().default(1),
  min: z.number().optional(),
  max: z.number().optional(),
});
const stringType = z.strictObject({
  kind: z.literal("string"),
  maxLength: count(LIMITS.byteLength),
  /** fixed: always maxLength bytes in fixed-layout formats (NUL padded) */
  fixed: z.boolean().default(false),
  /** restricts characters; bit-packing uses it to spend fewer bits per character */
  charset: z.enum(["utf8", "ascii", "digits", "hex", "upper-alnum", "alnum"]).default("utf8"),
});
const bytesType = z.strictObject({
  kind: z.literal("bytes"),
  maxLength: count(LIMITS.byteLength),
  fixed: z.boolean().default(false),
});

export const scalarTypeSchema = z.discriminatedUnion("kind", [
  boolType,
  enumType,
  intType,
  floatType,
  fixedType,
  timestampType,
  stringType,
  bytesType,
]);
export type ScalarType = z.infer<typeof scalarTypeSchema>;

const arrayType = z.strictObject({
  kind: z.literal("array"),
  of: scalarTypeSchema,
  /** fixed: exactly maxCount elements; otherwise 0..maxCount */
  maxCount: count(LIMITS.arrayCount),
  fixed: z.boolean().default(false),
});

/** How one value is chosen when the designer draws N reproducible samples. */
export const sampleModelSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("constant"), value: z.unknown() }),
  z.strictObject({
    kind: z.literal("uniform"),
    min: z.number(),
    max: z.number(),
    decimals: count(LIMITS.sampleDecimals).optional(),
  }),
  z.strictObject({
    kind: z.literal("normal"),
    mean: z.number(),
    sd: z.number().nonnegative(),
    min: z.number().optional(),
    max: z.number().optional(),
    decimals: count(LIMITS.sampleDecimals).optional(),
  }),
  z.strictObject({
    kind: z.literal("choice"),
    values: z.array(z.unknown()).min(1),
    weights: z.array(z.number().nonnegative()).optional(),
  }),
  z.strictObject({
    kind: z.literal("walk"),
    start: z.number(),
    /** each sample moves by U(stepMin, stepMax) */
    stepMin: z.number(),
    stepMax: z.number(),
    min: z.number().optional(),
    max: z.number().optional(),
    decimals: count(LIMITS.sampleDecimals).optional(),
  }),
  z.strictObject({
    kind: z.literal("counter"),
    start: z.number(),
    step: z.number().default(1),
    /** values run from start up to start + wrap and begin again (an 8-bit sequence number: wrap 256) */
    wrap: z.number().positive().optional(),
  }),
  /**
   * series: a random walk that moves at most maxRate units per second, i.e. each sample by
   * U(−maxRate, maxRate) × the sampling interval (batch.intervalSeconds; 1 s without a batch)
   */
  z.strictObject({
    kind: z.literal("randomWalk"),
    start: z.number(),
    maxRate: z.number().positive(),
    min: z.number().optional(),
    max: z.number().optional(),
    decimals: count(LIMITS.sampleDecimals).optional(),
  }),
  /** series: smooth drift, start + amplitude × sin(2π t / periodSeconds) plus normal noise (sd) */
  z.strictObject({
    kind: z.literal("drift"),
    start: z.number(),
    amplitude: z.number(),
    periodSeconds: z.number().positive(),
    noise: z.number().nonnegative().optional(),
    decimals: count(LIMITS.sampleDecimals).optional(),
  }),
  /** series: a value that rarely changes: each sample draws again from `from` with this chance, else repeats */
  z.strictObject({
    kind: z.literal("hold"),
    chance: z.number().min(0).max(1),
    from: z.lazy((): z.ZodType => sampleModelSchema),
  }),
  /** strings: literal text with {int:A:B[:pad]} and {digits:N} {hex:N} {alpha:N} placeholders */
  z.strictObject({ kind: z.literal("template"), template: z.string().max(LIMITS.template.max) }),
  /** arrays: one model per element (the last repeats), count between min and max */
  z.strictObject({
    kind: z.literal("elements"),
    each: z.array(z.lazy((): z.ZodType => sampleModelSchema)).min(1),
    minCount: count(LIMITS.arrayCount).optional(),
    maxCount: count(LIMITS.arrayCount).optional(),
  }),
]);
export type SampleModel =
  | { kind: "constant"; value: unknown }
  | { kind: "uniform"; min: number; max: number; decimals?: number }
  | { kind: "normal"; mean: number; sd: number; min?: number; max?: number; decimals?: number }
  | { kind: "choice"; values: unknown[]; weights?: number[] }
  | { kind: "walk"; start: number; stepMin: number; stepMax: number; min?: number; max?: number; decimals?: number }
  | { kind: "counter"; start: number; step: number; wrap?: number }
  | { kind: "randomWalk"; start: number; maxRate: number; min?: number; max?: number; decimals?: number }
  | { kind: "drift"; start: number; amplitude: number; periodSeconds: number; noise?: number; decimals?: number }
  | { kind: "hold"; chance: number; from: SampleModel }
  | { kind: "template"; template: string }
  | { kind: "elements"; each: SampleModel[]; minCount?: number; maxCount?: number };

export const structStringMode = z.enum([
  "fixed", // maxLength bytes in place, NUL padded (Python "Ns")
  "u8-inline", // u8 length then the bytes, in place
  "u16-inline",
  "u8-appended", // u8 length in place, bytes after the fixed part (the paper's layout with u16)
  "u16-appended",
]);
export type StructStringMode = z.infer<typeof structStringMode>;

// Every object of the document is strict: a misspelt setting ("schemaID") is refused with a "did you
// mean", never dropped for its default.
const fieldOptionsSchema = z.strictObject({
  protobuf: z
    .strictObject({
      number: count(LIMITS.protobufNumber).optional(),
      /** wire type choice for integers: varint (default), zigzag for signed, or fixed width */
      intEncoding: z.enum(["varint", "zigzag", "fixed"]).optional(),
      /**
       * fixed-count arrays only: one scalar field per element named key_<suffix>, numbered
       * consecutively from `number` (the paper's acc → acc_x=11, acc_y=12, acc_z=13)
       */
      expand: z
        .array(z.string().regex(/^[A-Za-z0-9_]+$/, "must hold only letters, digits and _"))
        .min(1)
        .max(LIMITS.arrayCount.max)
        .optional(),
    })
    .optional(),
  struct: z
    .strictObject({
      stringMode: structStringMode.optional(),
    })
    .optional(),
});

export interface FieldBase {
  id: string;
  key: string;
  name: string;
  unit?: string | undefined;
  description?: string | undefined;
  presence: "required" | "optional";
  text?: TextRep | undefined;
  sample?: SampleModel | undefined;
  options?: z.infer<typeof fieldOptionsSchema> | undefined;
}
export type ArrayType = z.infer<typeof arrayType>;
/** protobufReserved: numbers of fields deleted from this group's message, never reused */
export type GroupType = { kind: "group"; fields: Field[]; protobufReserved?: number[] | undefined };
export type FieldType = ScalarType | ArrayType | GroupType;
export type Field = FieldBase & { type: FieldType };

export const fieldSchema: z.ZodType<Field> = z.lazy(() =>
  z.strictObject({
    id: z.string().min(1).max(LIMITS.id.max),
    key: labelText(LIMITS.identifier.max),
    name: labelText(LIMITS.name.max),
    unit: z.string().max(LIMITS.unit.max).optional(),
    description: z.string().max(LIMITS.fieldDescription.max).optional(),
    presence: z.enum(["required", "optional"]).default("required"),
    type: z.discriminatedUnion("kind", [
      scalarTypeSchema,
      arrayType,
      z.strictObject({
        kind: z.literal("group"),
        fields: z.array(fieldSchema).max(LIMITS.fields.max),
        protobufReserved: z.array(count(LIMITS.protobufNumber)).optional(),
      }),
    ]),
    text: textRepSchema.optional(),
    sample: sampleModelSchema.optional(),
    options: fieldOptionsSchema.optional(),
  }),
) as z.ZodType<Field>;

/**
 * Many readings per message (issue #27): which top-level fields repeat per reading, how often a reading
 * is taken and how many go in one message. Every other top-level field is sent once per message. The
 * wire form is derived from it (codecs/src/batch/, docs/design/batch-wire.md).
 */
export const batchSchema = z.strictObject({
  perReading: z
    .array(
      z.strictObject({
        /** id of a top-level field */
        field: z.string(),
        /**
         * the most the value may change per second, in its own unit (a promise, like a range): it sets
         * the width of the delta form's differences; absent, they cover the field's whole range
         */
        maxRate: z.number().optional(),
      }),
    )
    .max(LIMITS.fields.max),
  /** seconds between two readings */
  intervalSeconds: z.number(),
  readings: z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("fixed"), count: z.number() }),
    /** as many as fit one message of this platform (an id of the planning catalog) */
    z.strictObject({ kind: z.literal("fit"), platform: z.string().max(LIMITS.id.max) }),
  ]),
  /** id of the per-reading timestamp sent as a base time plus offsets */
  time: z.string().optional(),
  /** delta form: every K-th reading is sent whole again (absent: only the first) */
  keyframeEvery: z.number().optional(),
});
export type Batch = z.infer<typeof batchSchema>;

export const layoutSchema = z.strictObject({
  format: z.literal(LAYOUT_FORMAT),
  version: z.literal(LAYOUT_VERSION),
  name: labelText(LIMITS.name.max),
  description: z.string().max(LIMITS.layoutDescription.max).optional(),
  /** protobuf package and message; SBE/Kaitai/C names derive from them */
  package: identifier.default("telemetry"),
  message: identifier.default("Telemetry"),
  struct: z
    .strictObject({
      endianness: z.enum(["big", "little"]).default("big"),
      stringMode: structStringMode.default("u16-appended"),
    })
    .default({ endianness: "big", stringMode: "u16-appended" }),
  json: z
    .strictObject({
      /** compact is what a device sends; python is json.dumps' default ", " / ": " */
      spacing: z.enum(["compact", "python"]).default("compact"),
    })
    .default({ spacing: "compact" }),
  sbe: z
    .strictObject({
      schemaId: count(LIMITS.sbeHeader).default(1),
      templateId: count(LIMITS.sbeHeader).default(1),
      version: count(LIMITS.sbeHeader).default(0),
    })
    .default({ schemaId: 1, templateId: 1, version: 0 }),
  /** protobuf numbers of deleted fields, never reused (schema evolution) */
  protobufReserved: z.array(count(LIMITS.protobufNumber)).default([]),
  fields: z.array(fieldSchema).max(LIMITS.fields.max),
  /** absent: one reading per message, as every layout before issue #27 */
  batch: batchSchema.optional(),
});

export type Layout = z.infer<typeof layoutSchema>;
export type LayoutInput = z.input<typeof layoutSchema>;
