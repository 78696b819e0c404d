// The checks every registered wire format must pass, run over the rows of table.ts (one per format
// id). Random layouts and records are the property tests' job (roundtrip.property, sizeOnly.property,
// fuzz/); this suite pins each format to named fixtures, measured rejection rates, its error mapping
// and the bytes its Python reference writes. Format-specific wire details live in <format>.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { CONFORMANCE, type FormatConformance } from "./table.ts";
import { DecodeError, EncodeError } from "../../src/errors.ts";
import { CODECS, FORMAT_MODULES, FORMAT_IDS, type FormatId } from "../../src/formats/registry.ts";
import { sizeOf } from "../../src/formats/sizer.ts";
import type { Field, Layout } from "../../src/layout/schema.ts";
import { parseLayout } from "../../src/layout/validate.ts";
import type { PlainRecord, PlainValue } from "../../src/layout/values.ts";
import { paperPreset } from "../../src/presets/paper.ts";
import { generateSamples } from "../../src/samples/generate.ts";
import { toPlain } from "../../src/text/plain.ts";
import { everyTypeLayout, textRepLayout } from "../fixtures/layouts.ts";
import { sensor, sensorRecord } from "../fixtures/sensor.ts";
import { expectOnlyDecodeErrors, expectRoundTripWithTiledSpans } from "../helpers/codecChecks.ts";
import { repoRoot } from "../helpers/python.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const variantsOf = (row: FormatConformance, layout: Layout) => row.variants?.(layout) ?? [layout];

const FIXTURES = [
  ["paper preset", parseLayout(paperPreset)],
  ["every type", parseLayout(everyTypeLayout)],
  ["text representations", parseLayout(textRepLayout)],
] as const;

test("every registered format has a conformance row, and every row a registered format", () => {
  expect(Object.keys(CONFORMANCE).sort()).toEqual([...FORMAT_IDS].sort());
});

test("a media type names one format, in lower case as ingest compares it", () => {
  const all = FORMAT_IDS.flatMap((id) => FORMAT_MODULES[id].mediaTypes);
  expect(new Set(all).size).toBe(all.length);
  for (const type of all) expect(type).toBe(type.toLowerCase());
});

for (const id of FORMAT_IDS) {
  // a format without a row still gets a describe block, so the test above is not the only failure
  const row = CONFORMANCE[id] as FormatConformance | undefined;
  const codec = CODECS[id];

  describe(`${id} conformance`, () => {
    test("declares the format info of its row", () => {
      expect(row, `${id} has no row in conformance/table.ts`).toBeDefined();
      expect(codec.info).toMatchObject({ id, ...row!.info });
      const impl = row!.implementation;
      if (impl && "package" in impl) {
        const pkg = path.join(repoRoot, "node_modules", impl.package, "package.json");
        const { version } = JSON.parse(readFileSync(pkg, "utf8")) as { version: string };
        expect(codec.info.implementation).toContain(`${impl.package} ${version}`);
      } else if (impl) expect(codec.info.implementation).toMatch(impl.matches);
    });

    test.each(FIXTURES)(
      "%s, 500 samples: decode(encode(r)) = r, spans tile the bytes, size-only = encode length",
      (_n, layout) => {
        for (const v of variantsOf(row!, layout)) {
          expectRoundTripWithTiledSpans(codec, v, 500, 7);
          const c = codec.compile(v);
          expect(c.sizer === undefined).toBe(codec.info.compressed || row!.sizeOnly === "absent");
          if (c.sizer)
            for (const rec of generateSamples(v, 100, 7)) expect(sizeOf(c.sizer, rec)).toBe(c.encode(rec).length);
        }
      },
    );

    test("every truncation and 2 000 byte mutations of valid messages give a record or a DecodeError", () => {
      expectOnlyDecodeErrors(codec, parseLayout(everyTypeLayout), {
        records: 4,
        mutationsPerRecord: 500,
        truncationsRejected: row!.truncationsRejected,
        ...row!.mutations,
      });
    });

    // every row has a case (the table's type says so): no format may write a lone surrogate as U+FFFD
    test("a lone surrogate is an EncodeError naming the field, from encode, encodeWithSpans and the sizer", () => {
      for (const { layout, record, message } of row!.loneSurrogate)
        for (const v of variantsOf(row!, layout)) {
          const c = codec.compile(v);
          expect(() => c.encode(record)).toThrow(EncodeError);
          expect(() => c.encode(record)).toThrow(message);
          expect(() => c.encodeWithSpans(record)).toThrow(message);
          if (c.sizer) expect(() => sizeOf(c.sizer!, record)).toThrow(message);
        }
    });

    if (row?.pythonBytes)
      test.each(row.pythonBytes)("the sensor record's bytes equal $by", ({ variant, hex: want, text }) => {
        const bytes = codec.compile(variantsOf(row, sensor)[variant]!).encode(sensorRecord);
        if (text !== undefined) expect(new TextDecoder().decode(bytes)).toBe(text);
        if (want !== undefined) expect(hex(bytes)).toBe(want);
      });

    if (row?.library) {
      const lib = row.library;
      test.each([FIXTURES[0], FIXTURES[2]])(
        `%s: the piecewise record equals ${lib.name}'s one-shot encoding of toPlain()`,
        (_n, layout) => {
          const c = codec.compile(layout);
          for (const rec of generateSamples(layout, 300, 2)) {
            const { bytes, spans } = c.encodeWithSpans(rec);
            expect(hex(Uint8Array.from(spans.flatMap((s) => [...bytes.subarray(s.start, s.end)])))).toBe(
              hex(lib.encode(toPlain(layout, rec, "binary"))),
            );
          }
        },
      );

      test(`every type: each key and each value span outside floats and 64-bit integers is ${lib.name}'s encoding of that piece`, () => {
        const layout = FIXTURES[1][1];
        const c = codec.compile(layout);
        const byId = new Map<string, Field>();
        const index = (fields: Field[]) =>
          fields.forEach((f) => (byId.set(f.id, f), f.type.kind === "group" && index(f.type.fields)));
        index(layout.fields);
        /** floats get their width from us and 64-bit integers their shortest form; everything else is the library's */
        const libraryWrites = (f: Field) => {
          const t = f.type.kind === "array" ? f.type.of : f.type;
          return !(
            t.kind === "float" ||
            t.kind === "fixed" ||
            (t.kind === "timestamp" && t.encoding === "epoch") ||
            (t.kind === "int" && t.bits === 64) ||
            t.kind === "group"
          );
        };
        let checked = 0;
        for (const rec of generateSamples(layout, 200, 4)) {
          const plain = toPlain(layout, rec, "binary");
          const { bytes, spans } = c.encodeWithSpans(rec);
          for (const s of spans) {
            const ids = s.field.split("/");
            const f = byId.get(ids[ids.length - 1]!);
            if (!f) continue;
            const piece = hex(bytes.subarray(s.start, s.end));
            if (s.role === "key") expect(piece).toBe(hex(lib.encode(f.key)));
            else if (s.role === "value" && libraryWrites(f)) {
              const value = ids.reduce<PlainValue>((v, id) => (v as PlainRecord)[byId.get(id)!.key]!, plain);
              expect(piece).toBe(hex(lib.encode(value)));
            } else continue;
            checked++;
          }
        }
        expect(checked).toBeGreaterThan(200 * 30);
      });
    }

    if (row?.mapSpans)
      test("map header is framing, keys are keys, nested map header belongs to the group", () => {
        const { spans } = codec.compile(sensor).encodeWithSpans(sensorRecord);
        expect(spans.slice(0, 3)).toEqual([
          { start: 0, end: 1, field: "", role: "framing" },
          { start: 1, end: 6, field: "name", role: "key" },
          { start: 6, end: 16, field: "name", role: "value" },
        ]);
        const pos = spans.filter((s) => s.field.startsWith("pos"));
        expect(pos.map((s) => [s.field, s.role, s.end - s.start])).toEqual([
          ["pos", "key", 4],
          ["pos", "framing", 1],
          ["pos/lat", "key", 4],
          ["pos/lat", "value", 9],
        ]);
      });

    if (row?.extremes) {
      const { layout, records } = row.extremes;
      test("extremes: empty/long/unicode strings, empty arrays, integer limits, -0.0, NaN, ±Infinity", () => {
        for (const v of variantsOf(row, layout)) {
          const c = codec.compile(v);
          for (const rec of records) {
            const back = c.decode(c.encode(rec));
            expect(back).toEqual(rec);
            expect([Object.is(back.f, rec.f), Object.is(back.d, rec.d)]).toEqual([true, true]);
            if (rec.b) expect(Object.getPrototypeOf(back.b)).toBe(Uint8Array.prototype);
          }
        }
      });
    }

    if (row?.strictDecode) {
      const { layout, input, cases } = row.strictDecode;
      const c = codec.compile(layout);
      const bytesOf = (s: string) =>
        input === "hex" ? Uint8Array.from(Buffer.from(s.replace(/\s+/g, ""), "hex")) : new TextEncoder().encode(s);
      test.each(cases)("decode %j → DecodeError at offset %i (%s)", (s, offset) => {
        let thrown: unknown;
        try {
          c.decode(bytesOf(s));
        } catch (e) {
          thrown = e;
        }
        expect(thrown, `accepted ${s}`).toBeInstanceOf(DecodeError);
        expect((thrown as DecodeError).format).toBe(id);
        expect((thrown as DecodeError).offset ?? -1).toBe(offset);
      });
    }
  });
}
