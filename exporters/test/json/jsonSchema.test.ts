// The JSON Schema export: ajv (draft 2020-12, strict) accepts the plain JSON form of every sample of
// every test layout, and rejects records with a field removed, added, of the wrong type, out of range
// or too long.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { codecFor, generateSamples } from "#codecs";
import { jsonRecord, type JsonValue } from "../../src/json/record.ts";
import { generateJsonSchema, jsonSchemaOf } from "../../src/jsonSchema.ts";
import { EXPORT_LAYOUTS } from "../support/layouts.ts";

type Obj = { [key: string]: JsonValue };

function mutations(rec: Obj, schema: Obj): Array<[string, Obj]> {
  const props = schema.properties as { [k: string]: Obj };
  const required = schema.required as string[];
  const out: Array<[string, Obj]> = [["unknown key", { ...rec, __extra: 1 }]];
  for (const key of required) {
    const { [key]: _gone, ...rest } = rec;
    out.push([`without ${key}`, rest]);
  }
  for (const [key, v] of Object.entries(rec)) {
    // no field of any type accepts an object unless it is a group, and a group no number
    const wrong = v !== null && typeof v === "object" && !Array.isArray(v) ? 5 : { x: 1 };
    out.push([`${key} of the wrong type`, { ...rec, [key]: wrong }]);
    const p = props[key]!;
    if (typeof p.maximum === "number")
      out.push([`${key} above maximum`, { ...rec, [key]: p.maximum + Math.max(1, Math.abs(p.maximum)) }]);
    if (typeof p.maxLength === "number" && typeof v === "string")
      out.push([`${key} too long`, { ...rec, [key]: "A".repeat(p.maxLength + 1) }]);
    if (Array.isArray(v) && typeof p.maxItems === "number")
      out.push([
        `${key} too many items`,
        { ...rec, [key]: [...v, ...Array.from({ length: p.maxItems + 1 - v.length }, () => v[0] ?? 0)] },
      ]);
  }
  return out;
}

describe("JSON Schema export", () => {
  it.each(EXPORT_LAYOUTS.map((l) => [l.name, l.layout] as const))(
    "%s: every sample validates, every mutation is rejected",
    (_name, layout) => {
      const files = generateJsonSchema(layout);
      expect(files).toHaveLength(1);
      const schema = JSON.parse(files[0]!.content) as Obj;
      expect(schema).toEqual(jsonSchemaOf(layout));
      const ajv = new Ajv2020({ strict: true, allErrors: true });
      const validate = ajv.compile(schema);
      const codec = codecFor(layout, "json");
      let checked = 0;
      let rejected = 0;
      for (const sample of generateSamples(layout, 300, 11)) {
        // the record as a decoder reports it: through our own JSON codec first
        const rec = jsonRecord(layout, codec.decode(codec.encode(sample)));
        const ok = validate(rec);
        expect(ok, `${JSON.stringify(rec)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked++;
        if (checked > 40) continue;
        for (const [what, bad] of mutations(rec, schema)) {
          expect(validate(bad), `${what} was accepted: ${JSON.stringify(bad)}`).toBe(false);
          rejected++;
        }
      }
      expect(checked).toBe(300);
      expect(rejected).toBeGreaterThan(40 * 4);
    },
  );

  it("writes the paper's text representation as patterns (all-string record)", () => {
    const paper = EXPORT_LAYOUTS.find((l) => l.name === "paper")!.layout;
    const s = jsonSchemaOf(paper) as { properties: { [k: string]: Obj } };
    expect(s.properties.temperature).toMatchObject({ type: "string", pattern: "^(?:-?\\d+\\.\\d{2}|NaN|-?Infinity)$" });
    expect(s.properties.nsat).toMatchObject({ type: "string", pattern: "^-?\\d{2,}$" });
    expect(s.properties.time).toMatchObject({
      type: "string",
      pattern: "^\\d\\d\\d\\d\\d\\d \\d\\d\\d\\d\\d\\d\\.\\d$",
    });
    expect(s.properties.msisdn).toMatchObject({ type: "string", maxLength: 15, pattern: "^[0-9]*$" });
    const validate = new Ajv2020({ strict: true }).compile(s);
    const good = jsonRecord(paper, generateSamples(paper, 1, 1)[0]!);
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, temperature: "17.2" })).toBe(false);
    expect(validate({ ...good, time: "010625 1145123" })).toBe(false);
  });
});
