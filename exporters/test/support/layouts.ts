// The layouts every export proof runs on: the presets, the codec fixtures and one layout of optional
// and nested constructs (SBE null values, Struct presence bits, appended strings inside groups).
import { type Layout, type LayoutInput, parseLayout, PRESETS } from "#codecs";
import { everyTypeLayout, textRepLayout } from "#codecs-test/fixtures/layouts.ts";
import { protobufOptionsLayout } from "#codecs-test/fixtures/protobuf-options.ts";

export const optionalMixLayout: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Optional mix",
  package: "mix",
  message: "OptionalMix",
  struct: { endianness: "little", stringMode: "u8-appended" },
  sbe: { schemaId: 7, templateId: 3, version: 2 },
  fields: [
    {
      id: "seq",
      key: "seq",
      name: "Sequence",
      presence: "required",
      type: { kind: "int", bits: 32, signed: false },
      sample: { kind: "counter", start: 4294967200, step: 7, wrap: 4294967295 },
    },
    { id: "ob", key: "ob", name: "Optional flag", presence: "optional", type: { kind: "bool" } },
    {
      id: "oe",
      key: "oe",
      name: "Optional enum",
      presence: "optional",
      type: {
        kind: "enum",
        values: [
          { name: "LOW", value: 0 },
          { name: "HIGH", value: 255 },
        ],
      },
    },
    {
      id: "ofx",
      key: "ofx",
      name: "Optional fixed",
      unit: "V",
      presence: "optional",
      type: { kind: "fixed", scale: 0.01, offset: 0, min: 0, max: 2.55 },
    },
    {
      id: "oi",
      key: "oi",
      name: "Optional i16",
      presence: "optional",
      type: { kind: "int", bits: 16, signed: true, min: -1000, max: 1000 },
    },
    {
      id: "ots",
      key: "ots",
      name: "Optional time",
      unit: "s",
      presence: "optional",
      type: { kind: "timestamp", encoding: "epoch", resolution: 0.01, min: 1700000000, max: 1900000000 },
      sample: { kind: "uniform", min: 1700000000, max: 1900000000, decimals: 2 },
    },
    {
      id: "of",
      key: "of",
      name: "Optional double",
      presence: "optional",
      type: { kind: "float", bits: 64, min: -1, max: 1 },
      sample: { kind: "uniform", min: -1, max: 1, decimals: 6 },
    },
    {
      id: "omac",
      key: "omac",
      name: "Optional MAC",
      presence: "optional",
      type: { kind: "bytes", maxLength: 4, fixed: true },
      sample: { kind: "constant", value: [10, 0, 0, 1] },
    },
    {
      id: "name",
      key: "name",
      name: "Name",
      presence: "required",
      type: { kind: "string", maxLength: 12, charset: "alnum" },
      sample: { kind: "template", template: "N{alpha:3}{digits:2}" },
    },
    {
      id: "pos",
      key: "pos",
      name: "Position",
      presence: "optional",
      type: {
        kind: "group",
        fields: [
          {
            id: "pos-lat",
            key: "lat",
            name: "Lat",
            unit: "°",
            presence: "required",
            type: { kind: "fixed", scale: 0.0001, offset: 0, min: -90, max: 90 },
            sample: { kind: "uniform", min: -90, max: 90, decimals: 4 },
          },
          {
            id: "pos-fix",
            key: "fix",
            name: "Fix",
            presence: "optional",
            type: {
              kind: "enum",
              values: [
                { name: "NONE", value: 0 },
                { name: "2D", value: 2 },
                { name: "3D", value: 3 },
              ],
            },
          },
          {
            id: "pos-src",
            key: "src",
            name: "Source",
            presence: "required",
            type: { kind: "string", maxLength: 6, charset: "upper-alnum" },
            sample: { kind: "choice", values: ["GPS", "GLO", "GAL-1", "BDS"] },
          },
        ],
      },
    },
    {
      id: "tags",
      key: "tags",
      name: "Tags",
      presence: "required",
      type: { kind: "array", of: { kind: "string", maxLength: 5, charset: "ascii" }, maxCount: 3 },
      sample: { kind: "elements", each: [{ kind: "template", template: "t{digits:2}" }], minCount: 0, maxCount: 3 },
    },
    {
      id: "levels",
      key: "levels",
      name: "Levels",
      presence: "required",
      type: {
        kind: "array",
        of: {
          kind: "enum",
          values: [
            { name: "A", value: 1 },
            { name: "B", value: 2 },
            { name: "C", value: 3 },
          ],
        },
        maxCount: 4,
      },
      sample: { kind: "elements", each: [{ kind: "choice", values: ["A", "B", "C"] }], minCount: 1, maxCount: 4 },
    },
    {
      id: "stamps",
      key: "stamps",
      name: "Stamps",
      presence: "required",
      type: {
        kind: "array",
        of: { kind: "timestamp", encoding: "text", textFormat: "YYMMDDhhmm", resolution: 60 },
        maxCount: 2,
        fixed: true,
      },
      sample: { kind: "walk", start: 1767225600, stepMin: 60, stepMax: 600 },
    },
    {
      id: "note",
      key: "note",
      name: "Note",
      presence: "optional",
      type: { kind: "string", maxLength: 20 },
      sample: { kind: "choice", values: ["hi", "ünïcode ✓", "x"] },
    },
  ],
};

export interface NamedLayout {
  name: string;
  layout: Layout;
}

/** Every preset, the codec fixtures and the optional mix, parsed once. */
export const EXPORT_LAYOUTS: readonly NamedLayout[] = [
  ...PRESETS.map((p) => ({ name: p.id, layout: parseLayout(p.layout) })),
  { name: "every-type", layout: parseLayout(everyTypeLayout) },
  { name: "text-rep", layout: parseLayout(textRepLayout) },
  { name: "protobuf-options", layout: parseLayout(protobufOptionsLayout) },
  { name: "optional-mix", layout: parseLayout(optionalMixLayout) },
];

export function layoutNamed(name: string): Layout {
  const found = EXPORT_LAYOUTS.find((l) => l.name === name);
  if (!found) throw new Error(`no export test layout "${name}"`);
  return found.layout;
}
