// Reading a message as sent (formats/asSent.ts): the stored form is what the device sent — its text,
// never rounded to the layout's declared decimals — and every value beyond the layout is listed.
// Expected values are the literal texts and numbers a device put on the wire, never our own output.
import { encode as msgpackEncode } from "@msgpack/msgpack";
import { Encoder as CborEncoder } from "cbor-x";
import { describe, expect, test } from "vitest";
import { everyTypeLayout, textRepLayout } from "./fixtures/layouts.ts";
import { encodeUnlessRefused } from "./helpers/expectedErrors.ts";
import { DecodeError } from "../src/errors.ts";
import { decodeAsSent } from "../src/formats/asSent.ts";
import { codecFor, FORMAT_IDS } from "../src/formats/registry.ts";
import type { LayoutInput } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import type { PlainRecord, TypedRecord } from "../src/layout/values.ts";
import { PRESETS } from "../src/presets/index.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { Prng } from "../src/samples/prng.ts";
import { toFloat32 } from "../src/text/numbers.ts";
import { fromPlain, toPlain } from "../src/text/plain.ts";

const paper = parseLayout(paperPreset);
const cbor = (v: unknown) => new CborEncoder({ useRecords: false, variableMapSize: true }).encode(v);

/** a reading as the paper author's CBOR and MessagePack senders write it: latitude and longitude with 4 decimals */
const authorReading: PlainRecord = {
  msisdn: "393600504873",
  iso6346: "LMCU0421337",
  time: "271126 101530.4",
  rssi: "27",
  cgi: "999-01-1-31D41",
  "ble-m": "1",
  "bat-soc": "88",
  acc: "-980.1234 -20.5678 -45.0001",
  temperature: "21.37",
  humidity: "70.12",
  pressure: "1010.1234",
  door: "D",
  gnss: "1",
  latitude: "31.6225",
  longitude: "28.7400",
  altitude: "45.10",
  speed: "12.3",
  heading: "123.45",
  nsat: "07",
  hdop: "1.5",
};

/** JSON text as oneM2M gets it: an integer a double holds exactly is a number, a larger one keeps its digits */
const json = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) =>
    typeof x === "bigint" ? (Number.isSafeInteger(Number(x)) ? Number(x) : `${x}n`) : x,
  );

describe("self-describing formats keep the device's text", () => {
  test.each([
    ["cbor", cbor(authorReading)],
    ["msgpack", msgpackEncode(authorReading)],
    ["json", new TextEncoder().encode(JSON.stringify(authorReading))],
  ] as const)("%s: every value as sent, in its order; the 4-decimal latitude flagged", (format, bytes) => {
    const d = decodeAsSent(paper, format, bytes);
    expect(json(d.sent)).toBe(json(authorReading));
    // "28.7400" says nothing "28.74" does not: only the latitude goes beyond 2 decimals
    expect(d.excess).toEqual([
      { field: "latitude", kind: "precision", sent: "31.6225", allowed: "at most 2 decimals" },
    ]);
    // the typed record is what the layout reads from that text (float32 of 31.6225)
    expect(d.record.latitude).toBe(toFloat32(31.6225));
  });

  test("the designer's decode and text form are unchanged: they still round to the layout", () => {
    const rec = codecFor(paper, "cbor").decode(cbor(authorReading));
    expect(toPlain(paper, rec, "json").latitude).toBe("31.62");
  });

  test("a number where the layout writes text is kept as the number, flagged when finer than declared", () => {
    const d = decodeAsSent(paper, "cbor", cbor({ ...authorReading, latitude: 31.6225, longitude: 28.75 }));
    expect(d.sent.latitude).toBe(31.6225);
    expect(d.sent.longitude).toBe(28.75);
    expect(d.excess.map((x) => `${x.field}:${x.sent}`)).toEqual(["latitude:31.6225"]);
  });

  test("outside the declared range: refused by default, kept and flagged on request; beyond the type: refused", () => {
    const far = cbor({ ...authorReading, latitude: "95.50" });
    expect(() => decodeAsSent(paper, "cbor", far)).toThrow(DecodeError);
    expect(() => decodeAsSent(paper, "cbor", far)).toThrow("latitude: 95.50 is outside -90..90");
    const kept = decodeAsSent(paper, "cbor", far, { range: "flag" });
    expect(kept.sent.latitude).toBe("95.50");
    expect(kept.excess).toEqual([{ field: "latitude", kind: "range", sent: "95.50", allowed: "-90..90" }]);
    // rssi is a u8 declared 0..99: 120 fits the type (flaggable), 300 does not (always refused)
    const rssi = decodeAsSent(paper, "cbor", cbor({ ...authorReading, rssi: "120" }), { range: "flag" });
    expect(rssi.excess).toContainEqual({ field: "rssi", kind: "range", sent: "120", allowed: "0..99" });
    expect(() => decodeAsSent(paper, "cbor", cbor({ ...authorReading, rssi: "300" }), { range: "flag" })).toThrow(
      DecodeError,
    );
    // what the type cannot name at all stays refused: an unknown key, a non-number
    expect(() => decodeAsSent(paper, "cbor", cbor({ ...authorReading, latitude: "31.6x" }), { range: "flag" })).toThrow(
      DecodeError,
    );
  });

  test("array text: each element checked, the field flagged once per element that exceeds", () => {
    const layout = parseLayout(textRepLayout);
    const d = decodeAsSent(
      layout,
      "json",
      new TextEncoder().encode('{"n":"007","t":"1.5","v":"1.2345,2,3.000","b":"1","e":"A"}'),
    );
    expect(d.sent).toEqual({ n: "007", t: "1.5", v: "1.2345,2,3.000", b: "1", e: "A" });
    expect(d.excess).toEqual([{ field: "v", kind: "precision", sent: "1.2345", allowed: "at most 3 decimals" }]);
  });
});

describe("binary formats: the value the wire carried, never rounded through the declared decimals", () => {
  const finer: PlainRecord = { ...authorReading, latitude: "31.6225", longitude: "28.7411" };
  test.each(["protobuf", "struct", "struct-zlib", "sbe"] as const)(
    "%s: float32 31.6225 under 2 declared decimals is stored as 31.6225 and flagged",
    (format) => {
      const bytes = codecFor(paper, format).encode(fromPlain(paper, finer));
      const d = decodeAsSent(paper, format, bytes);
      expect(d.sent.latitude).toBe("31.6225");
      expect(d.sent.longitude).toBe("28.7411");
      expect(d.excess.map((x) => `${x.field}:${x.kind}:${x.sent}`)).toEqual([
        "latitude:precision:31.6225",
        "longitude:precision:28.7411",
      ]);
      // values at the declared precision come out in the layout's text form, as before
      expect(d.sent.temperature).toBe("21.37");
      expect(d.sent.nsat).toBe("07");
    },
  );

  test("float64, float32, 64-bit integers and fixed-point steps survive exactly", () => {
    const layout = parseLayout(everyTypeLayout);
    const rec = generateSamples(layout, 1, 3)[0]!;
    const extreme: TypedRecord = {
      ...rec,
      u64: 18446744073709551615n,
      i64: -9223372036854775808n,
      f64: 0.1 + 0.2,
      f32: toFloat32(21.123456),
      lat: 43.70001,
      gps: { lat: 43.123456789012345, lon: -7.000000000000001 },
    };
    for (const format of ["protobuf", "struct", "sbe", "cbor", "msgpack", "json", "pson"] as const) {
      const d = decodeAsSent(layout, format, codecFor(layout, format).encode(extreme));
      expect(d.sent.u64, format).toBe(18446744073709551615n);
      expect(d.sent.i64, format).toBe(-9223372036854775808n);
      expect(d.sent.f64, format).toBe(0.30000000000000004);
      // JSON carries a float32 as its shortest text ("21.123455"), which is what is kept; the others its exact value
      if (format === "json") expect(d.sent.f32).toBe(21.123455);
      else expect(d.sent.f32, format).toBe(toFloat32(21.123456));
      expect(d.sent.lat, format).toBe(43.70001);
      expect(d.sent.gps, format).toEqual({ lat: 43.123456789012345, lon: -7.000000000000001 });
      expect(d.excess, format).toEqual([]);
    }
  });

  test("a fixed-point step finer than the declared text decimals is written exactly", () => {
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "fixed",
      fields: [
        {
          id: "p",
          key: "p",
          name: "p",
          presence: "required",
          type: { kind: "fixed", scale: 0.001, offset: 0, min: 0, max: 100 },
          text: { as: "string", decimals: 2 },
        },
      ],
    } satisfies LayoutInput);
    const enc = (p: number) => codecFor(layout, "struct").encode({ p });
    expect(decodeAsSent(layout, "struct", enc(12.345)).sent).toEqual({ p: "12.345" });
    expect(decodeAsSent(layout, "struct", enc(12.345)).excess).toEqual([
      { field: "p", kind: "precision", sent: "12.345", allowed: "at most 2 decimals" },
    ]);
    expect(decodeAsSent(layout, "struct", enc(12.34))).toMatchObject({ sent: { p: "12.34" }, excess: [] });
  });
});

describe("records within their layout read as before", () => {
  const layouts: [string, LayoutInput][] = [
    ...PRESETS.map((p): [string, LayoutInput] => [p.id, p.layout]),
    ["every-type", everyTypeLayout],
    ["text-rep", textRepLayout],
  ];
  test.each(layouts)("%s: every format's samples flag nothing and read as toPlain of decode", (_name, input) => {
    // JSON is kept as its text says (a float32 as its shortest digits, a 64-bit integer as a number)
    const asText = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    const layout = parseLayout(input);
    for (const format of FORMAT_IDS) {
      const codec = codecFor(layout, format);
      for (const r of generateSamples(layout, 60, 11)) {
        // a sample this format refuses (bit-packed ranges) is not a message; anything else is a bug
        const bytes = encodeUnlessRefused(codec, r);
        if (!bytes) continue;
        const d = decodeAsSent(layout, format, bytes);
        expect(d.excess, format).toEqual([]);
        // integer-keyed formats show the numbers as sent; by name they are the same document
        const named = codec.document?.named;
        expect(json(named ? named(d.sent) : d.sent), format).toBe(
          json(format === "json" ? asText(bytes) : toPlain(layout, codec.decode(bytes), "json")),
        );
      }
    }
  });
});

test("any input: a record or DecodeError, in both range modes", () => {
  const rng = new Prng(0x51);
  const failures: string[] = [];
  for (const input of [paperPreset, everyTypeLayout]) {
    const layout = parseLayout(input);
    const samples = generateSamples(layout, 10, 5);
    for (const format of FORMAT_IDS) {
      const valid = samples.map((r) => codecFor(layout, format).encode(r));
      for (let i = 0; i < 600; i++) {
        const b = Uint8Array.from(valid[i % valid.length]!);
        const at = rng.nextU32() % b.length;
        if (i % 3 === 0) b[at] = b[at]! ^ (1 << (rng.nextU32() % 8));
        const bytes = i % 3 === 1 ? b.subarray(0, rng.nextU32() % b.length) : b;
        for (const range of ["refuse", "flag"] as const) {
          try {
            decodeAsSent(layout, format, bytes, { range });
          } catch (e) {
            if (!(e instanceof DecodeError) && failures.length < 5) failures.push(`${format} ${range}: ${String(e)}`);
          }
        }
      }
    }
  }
  expect(failures).toEqual([]);
});
