// Every bound the layout document puts on a value, with the reason a person is told when they pass it.
// The counts and lengths are as large as the formats the studio writes can carry (checked against each
// format's own rule, named in `why`); the text lengths keep names usable where they are shown.

export interface Limit {
  min?: number;
  max: number;
  /** why the upper bound is there, as the end of a sentence ("… because <why>") */
  why: string;
  /** why the lower bound is there, when it is more than "no negative counts" (told without a reason) */
  whyMin?: string;
}

const SIXTEEN_BIT_COUNT =
  "Struct writes a variable count as a uint16, SBE counts group entries in a uint16 (numInGroup) and nanopb and the C export keep array sizes in 16 bits";

export const LIMITS = {
  /** fields of one message: the top level, or one group */
  fields: {
    max: 65_535,
    why: "nanopb counts the fields of a message in 16 bits and SBE numbers them with 16-bit ids",
  },
  /** elements of an array */
  arrayCount: { min: 0, max: 65_535, why: SIXTEEN_BIT_COUNT },
  /** string and bytes lengths in bytes */
  byteLength: {
    min: 0,
    max: 65_535,
    why: "Struct (u16 length), SBE (uint16 var-data length) and the C export (uint16_t length) count bytes in 16 bits",
  },
  /** names that become identifiers in generated schemas and code */
  identifier: { max: 64, why: "SBE schema names are at most 64 characters (symbolicName_t)" },
  id: { max: 64, why: "ids only tell fields apart; the designer's are 12 characters" },
  name: { max: 128, why: "names label rows, generated code comments and reports" },
  unit: { max: 32, why: "units are shown beside values" },
  fieldDescription: { max: 2_000, why: "descriptions go into generated code comments" },
  layoutDescription: { max: 4_000, why: "the layout description heads generated files and the report" },
  enumValue: {
    min: 0,
    max: 65_535,
    why: "SBE writes an enum as a uint8 or uint16 and bit-packing needs a bounded range",
  },
  enumValues: { max: 65_536, why: "every value needs its own number 0 … 65 535" },
  protobufNumber: {
    min: 1,
    max: 536_870_911,
    why: "protobuf field numbers are 1 … 2^29 − 1 (19 000 … 19 999 are reserved for protobuf itself)",
    whyMin: "protobuf field numbers start at 1",
  },
  sbeHeader: { min: 0, max: 65_535, why: "the SBE message header holds it as a uint16" },
  textDecimals: { min: 0, max: 17, why: "a 64-bit float has at most 17 significant decimal digits" },
  textPad: { min: 0, max: 32, why: "padding beyond 32 digits would only add bytes to every message" },
  separator: { max: 8, why: "a separator is repeated between every two elements of every message" },
  timestampFormat: { max: 40, why: "the formatted time travels in every message" },
  sampleDecimals: { min: 0, max: 12, why: "sample values are drawn as 64-bit floats" },
  template: { max: 256, why: "a template draws one string value" },
} as const satisfies Record<string, Limit>;

/** Protobuf's own range, refused for field numbers by protoc. */
export const PROTOBUF_RESERVED_RANGE = [19_000, 19_999] as const;
