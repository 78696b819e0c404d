import { beforeAll, describe, expect, it } from "vitest";
import {
  codecFor,
  FORMAT_IDS,
  generateSamples,
  type LayoutInput,
  parseLayout,
  presetById,
  type TypedRecord,
} from "#codecs";
import { adviseFit, applyAll } from "../src/advisor/advise.ts";
import { applyTransform } from "../src/advisor/transforms.ts";
import { AdvisorError, type AdvisorResult, type Transform } from "../src/advisor/types.ts";

const preset = (id: string) => parseLayout(presetById(id)!.layout);

function deepFreeze<T>(o: T): T {
  if (o && typeof o === "object") {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/** The plan's record mapping written out by hand: moved fields leave, prefixes are cut off. */
function mapByHand(rec: TypedRecord, transforms: readonly Transform[]): TypedRecord {
  const out: TypedRecord = { ...rec };
  for (const t of transforms) {
    const key = t.fieldId; // the paper preset's ids are its keys
    if (t.kind === "move-to-status") delete out[key];
    if (t.kind === "split-prefix") {
      const rest = (out[key] as string).slice(t.prefix.length);
      out[key] = t.rest.as === "int" ? Number(rest) : rest;
    }
  }
  return out;
}

describe("the paper preset on Kinéis (30 bytes, bit-packed)", () => {
  const paper = preset("paper");
  const samples = generateSamples(paper, 10_000, 1);
  let result: AdvisorResult;
  beforeAll(() => {
    result = adviseFit(paper, { targetBytes: 30, records: samples });
  }, 120_000);

  it("plans a layout that fits", () => {
    expect(result.base.max).toBe(62);
    expect(result.plan.fits).toBe(true);
    expect(result.plan.failed).toBe(0);
    expect(result.plan.sizes.count).toBe(10_000);
    expect(result.plan.sizes.max).toBeLessThanOrEqual(30);
  });

  it("fits every one of the 10 000 samples, encoded one by one", () => {
    const codec = codecFor(result.plan.layout, "bitpacked");
    let worst = 0;
    for (const s of samples) worst = Math.max(worst, codec.encode(mapByHand(s, result.plan.transforms)).length);
    expect(worst).toBeLessThanOrEqual(30);
    // the new layout's own samples (its sample models were carried along) fit as well
    const fresh = codecFor(parseLayout(result.plan.layout), "bitpacked");
    for (const s of generateSamples(result.plan.layout, 10_000, 7))
      expect(fresh.encode(s).length).toBeLessThanOrEqual(30);
  });

  it("reports as precision loss exactly the worst error measured by decoding every sample", () => {
    const codec = codecFor(result.plan.layout, "bitpacked");
    const worst = new Map<string, number>();
    const note = (key: string, e: number) => worst.set(key, Math.max(worst.get(key) ?? 0, e));
    const status = result.status!;
    const statusCodec = codecFor(status.layout, "bitpacked");
    const statusRecord = Object.fromEntries(
      status.layout.fields.map((f) => [f.key, (f.sample as { value: string }).value]),
    );
    const statusBack = statusCodec.decode(statusCodec.encode(statusRecord));
    for (const s of samples) {
      const d = codec.decode(codec.encode(mapByHand(s, result.plan.transforms)));
      for (const t of result.plan.transforms) {
        const key = t.fieldId;
        const o = s[key]!;
        switch (t.kind) {
          case "move-to-status":
            note(key, statusBack[key] === o ? 0 : Infinity);
            break;
          case "split-prefix":
            note(
              key,
              `${statusBack[`${key}_prefix`]}${String(d[key]).padStart(t.rest.as === "int" ? t.rest.digits : 0, "0")}` ===
                o
                ? 0
                : Infinity,
            );
            break;
          case "string-to-enum":
          case "string-charset":
            note(key, d[key] === o ? 0 : Infinity);
            break;
          default:
            if (Array.isArray(o)) (o as number[]).forEach((x, i) => note(key, Math.abs(x - (d[key] as number[])[i]!)));
            else note(key, Math.abs((o as number) - (d[key] as number)));
        }
      }
    }
    for (const loss of result.plan.losses) {
      expect(loss.measured, loss.field).toBe(worst.get(loss.field));
      // never beyond the worst case the step allows; the 10 000 samples come close to it (a step such as 0.0611
      // does not fall on the samples' decimals, so the exact worst case may never be drawn)
      expect(loss.measured, loss.field).toBeLessThanOrEqual(loss.bound + 1e-9);
      expect(loss.measured, loss.field).toBeGreaterThanOrEqual(loss.bound * 0.9);
    }
  });

  it("states exactly what precision was given up", () => {
    expect(result.plan.losses.map((l) => `${l.field}: ${l.text}`)).toEqual([
      "cgi: exact",
      "iso6346: exact",
      "msisdn: exact",
      "door: exact",
      // the text time's tenths kept as epoch tenths; nsat, rssi and bat-soc keep their declared ranges (samples
      // cannot prove a range), so nothing narrows them
      "time: exact",
      // steps that fit the bits (not only 1-2-5 multiples): each finer than the ±1°, ±0.05 mg, ±0.1 %RH … of 1-2-5
      "heading: ±0.71°",
      "acc: ±0.0306 mg",
      "humidity: ±0.0985 %RH",
      "temperature: ±0.0306 °C",
      "altitude: ±0.145 m",
      "pressure: ±0.098 hPa",
      "speed: ±0.197 m/s",
    ]);
    // what travels in the rarer message instead: the cell id and the two constant prefixes
    expect(result.status!.layout.fields.map((f) => `${f.key}=${(f.sample as { value: unknown }).value}`)).toEqual([
      "cgi=999-01-1-31D41",
      "iso6346_prefix=LMCU",
      "msisdn_prefix=393600504",
    ]);
    expect(result.status!.sizes.max).toBe(20);
  });

  it("ranks lossless changes first, then by bytes saved per bit of information lost", () => {
    const s = result.suggestions;
    const firstLossy = s.findIndex((x) => x.bytesPerBit !== null);
    expect(firstLossy).toBeGreaterThan(0);
    expect(s.slice(0, firstLossy).every((x) => x.infoLostBits <= 1e-6)).toBe(true);
    for (let i = firstLossy + 1; i < s.length; i++)
      expect(s[i]!.bytesPerBit!).toBeLessThanOrEqual(s[i - 1]!.bytesPerBit!);
    // a few bits saved may vanish in the last byte's padding, but no suggestion makes messages larger
    for (const x of s) expect(x.sizes.max, x.id).toBeLessThanOrEqual(result.base.max);
  });

  it("applies one suggestion or all of them without touching the layout it was given", () => {
    const frozen = deepFreeze(structuredClone(paper));
    const before = JSON.stringify(frozen);
    const one = applyTransform(frozen, result.suggestions[0]!.transform);
    expect(one).not.toBe(frozen);
    expect(one.fields.length).toBe(19);
    const all = applyAll(frozen, result.plan.transforms);
    expect(JSON.stringify(frozen)).toBe(before);
    expect(parseLayout(all)).toEqual(all);
    expect(all).toEqual(result.plan.layout);
    // the moved field's protobuf number is reserved, never reused
    expect(all.protobufReserved).toContain(4);
  });
});

describe("advisor edges", () => {
  it("leaves a layout that already fits alone", () => {
    const r = adviseFit(preset("kineis-tracker"), { targetBytes: 30, samples: 300 });
    expect(r.plan.transforms).toEqual([]);
    expect(r.plan.fits).toBe(true);
  });

  it("says so when the target cannot be reached, gives up no precision for it and tells how close every change gets", () => {
    const r = adviseFit(preset("kineis-tracker"), { targetBytes: 12, samples: 300 });
    expect(r.plan.fits).toBe(false);
    expect(r.plan.partial).toBe(true);
    expect(r.plan.losses.every((l) => l.bound === 0)).toBe(true);
    expect(r.plan.sizes.max).toBeGreaterThan(12);
    expect(r.plan.closest!.max).toBeGreaterThan(12);
    expect(r.plan.closest!.max).toBeLessThan(r.base.max);
  });

  it("moves only what is needed in a byte-aligned format: the paper in Struct under 100 bytes", () => {
    const r = adviseFit(preset("paper"), { targetBytes: 100, format: "struct", samples: 300 });
    expect(r.base.max).toBe(116);
    expect(r.plan.transforms).toEqual([{ kind: "move-to-status", fieldId: "cgi" }]);
    expect(r.plan.sizes.max).toBe(100);
    // the format lever: every other format as the layout is now, smallest first (bit-packed 62 B … JSON last)
    expect(r.otherFormats.map((o) => o.format)).not.toContain("struct");
    expect(r.otherFormats).toHaveLength(FORMAT_IDS.length - 1);
    expect(r.otherFormats[0]!.format).toBe("bitpacked");
    expect(r.otherFormats[0]!.sizes!.max).toBe(62);
    expect(r.otherFormats.at(-1)!.format).toBe("json");
    const maxes = r.otherFormats.map((o) => o.sizes!.max);
    expect(maxes).toEqual([...maxes].sort((a, b) => a - b));
    // float → fixed-point at the same step halves a float32 in Struct
    const temp = r.suggestions.find((s) => s.fieldId === "temperature")!;
    expect(temp.transform).toEqual({ kind: "fixed-point", fieldId: "temperature", step: 0.01 });
    expect(temp.bytesSaved).toBe(2);
  });

  it("suggests a narrower alphabet for text that only uses digits", () => {
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "meter",
      fields: [
        {
          id: "serial",
          key: "serial",
          name: "Serial",
          type: { kind: "string", maxLength: 10 },
          sample: { kind: "template", template: "{digits:10}" },
        },
        {
          id: "kwh",
          key: "kwh",
          name: "Energy",
          unit: "kWh",
          type: { kind: "int", bits: 32, signed: false, min: 0, max: 1_000_000 },
        },
      ],
    } satisfies LayoutInput);
    const r = adviseFit(layout, { targetBytes: 12, samples: 200 });
    const s = r.suggestions.find((x) => x.fieldId === "serial")!;
    expect(s.transform).toEqual({ kind: "string-charset", fieldId: "serial", charset: "digits" });
    expect(s.bytesSaved).toBe(5);
    expect(r.plan.fits).toBe(true);
    expect(r.base.max).toBe(13);
    expect(r.plan.sizes.max).toBe(8);
  });

  it("rejects bad targets and transforms of fields that are not there or not of the right type", () => {
    const paper = preset("paper");
    expect(() => adviseFit(paper, { targetBytes: 0 })).toThrow(AdvisorError);
    expect(() => applyTransform(paper, { kind: "move-to-status", fieldId: "nope" })).toThrow(
      'the layout has no field "nope"',
    );
    expect(() => applyTransform(paper, { kind: "string-to-enum", fieldId: "rssi", values: ["a"] })).toThrow(
      "rssi is not a string",
    );
  });
});
