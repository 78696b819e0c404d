import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DecodeError, EncodeError } from "../src/errors.ts";
import { everyTypeLayout } from "./fixtures/layouts.ts";
import { runPython } from "./helpers/python.ts";
import { bitpackedCodec, bitpackedPlan, type BitpackedFieldPlan } from "../src/formats/bitpacked/codec.ts";
import type { LayoutInput } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import type { FieldValue, TypedRecord } from "../src/layout/values.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { Prng } from "../src/samples/prng.ts";
import { bytesToHex, hexToBytes } from "../src/text/bytes.ts";
import { toFloat32 } from "../src/text/numbers.ts";

const layoutOf = (fields: LayoutInput["fields"]) => parseLayout({ format: "satlayout", version: 1, name: "t", fields });
const compile = (fields: LayoutInput["fields"]) => bitpackedCodec.compile(layoutOf(fields));
const hex = (b: Uint8Array) => bytesToHex(b);
const bytes = (h: string) => hexToBytes(h)!;

/**
 * An independent packer written from docs/design/bitpacked-mapping.md with Python's big integers,
 * so the TypeScript bit writer, alphabets and quantisers are checked against a second reading of
 * the spec rather than against themselves.
 */
const PY_REFERENCE = String.raw`
import json, math, struct, sys

def js_round(x):
    f = math.floor(x)
    return f + 1 if x - f >= 0.5 else f

def width(span):
    return span.bit_length() if span > 0 else 0

def decimals(x):
    for d in range(16):
        s = x * 10 ** d
        if abs(s - round(s)) <= 1e-9 * max(1, abs(s)):
            return d
    return None

INT_LIMITS = {8: (-128, 127, 255), 16: (-32768, 32767, 65535), 32: (-2**31, 2**31 - 1, 2**32 - 1), 64: (-2**63, 2**63 - 1, 2**64 - 1)}

def int_range(t):
    lo_s, hi_s, hi_u = INT_LIMITS[t["bits"]]
    lo0, hi0 = (lo_s, hi_s) if t["signed"] else (0, hi_u)
    lo = max(lo0, math.ceil(t["min"])) if "min" in t else lo0
    hi = min(hi0, math.floor(t["max"])) if "max" in t else hi0
    return lo, hi

def grid(lo, hi, step):
    qmax = js_round((hi - lo) / step)
    if qmax < 0 or qmax > 2**53 - 1:
        return None
    return qmax

def text_resolution(fmt):
    i = fmt.find("ss.")
    if i < 0:
        return 1
    n = 0
    while i + 3 + n < len(fmt) and fmt[i + 3 + n] == "s":
        n += 1
    return 10 ** -n

AIS = "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_ !\"#$%&'()*+,-./0123456789:;<=>?"
ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

def symbols(charset, s):
    if charset == "digits":
        return 4, [ord(c) - 48 for c in s], 15
    if charset == "hex":
        return 4, [int(c, 16) for c in s], None
    if charset == "upper-alnum":
        return 6, [AIS.index(c) for c in s], 0
    if charset == "alnum":
        return 6, [ALNUM.index(c) for c in s], 62
    if charset == "ascii":
        return 7, [ord(c) for c in s], 0
    return 8, list(s.encode("utf-8")), 0

class Bits:
    def __init__(self):
        self.v = 0
        self.n = 0
    def put(self, value, n):
        assert 0 <= value < (1 << n) or (n == 0 and value == 0), (value, n)
        self.v = (self.v << n) | value
        self.n += n
    def done(self):
        pad = (-self.n) % 8
        return ((self.v << pad).to_bytes((self.n + pad) // 8, "big")).hex()

def unwrap(v):
    if isinstance(v, dict) and "$big" in v:
        return int(v["$big"])
    if isinstance(v, dict) and "$bytes" in v:
        return bytes.fromhex(v["$bytes"])
    if isinstance(v, dict) and "$num" in v:
        return float(v["$num"])
    return v

def scalar(b, t, v):
    v = unwrap(v)
    k = t["kind"]
    if k == "bool":
        b.put(1 if v else 0, 1)
    elif k == "enum":
        names = [e["name"] for e in t["values"]]
        b.put(names.index(v), width(len(names) - 1))
    elif k == "int":
        lo, hi = int_range(t)
        b.put(v - lo, width(hi - lo))
    elif k == "float":
        raw = t["bits"]
        if "min" in t and "max" in t and "precision" in t:
            qmax = grid(t["min"], t["max"], t["precision"])
            if qmax is not None and width(qmax) < raw:
                q = min(max(js_round((v - t["min"]) / t["precision"]), 0), qmax)
                b.put(q, width(qmax))
                return
        b.put(int.from_bytes(struct.pack(">f" if raw == 32 else ">d", v), "big"), raw)
    elif k == "fixed":
        raw_lo = js_round((t["min"] - t["offset"]) / t["scale"])
        span = js_round((t["max"] - t["offset"]) / t["scale"]) - raw_lo
        q = min(max(js_round((v - t["offset"]) / t["scale"]) - raw_lo, 0), span)
        b.put(q, width(span))
    elif k == "timestamp":
        res = text_resolution(t["textFormat"]) if t["encoding"] == "text" else t["resolution"]
        lo = t.get("min", 0)
        hi = t["max"] if "max" in t else lo + 4294967295
        qmax = grid(lo, hi, res)
        if qmax is None or width(qmax) >= 64:
            b.put(int.from_bytes(struct.pack(">d", v), "big"), 64)
        else:
            b.put(min(max(js_round((v - lo) / res), 0), qmax), width(qmax))
    elif k == "string":
        bits, syms, pad = symbols(t["charset"], v)
        if not t["fixed"]:
            b.put(len(syms), width(t["maxLength"]))
        for s in syms:
            b.put(s, bits)
        if t["fixed"]:
            for _ in range(t["maxLength"] - len(syms)):
                b.put(pad, bits)
    elif k == "bytes":
        if not t["fixed"]:
            b.put(len(v), width(t["maxLength"]))
        for x in v:
            b.put(x, 8)
    else:
        raise ValueError(k)

def fields(b, fs, rec):
    for f in fs:
        v = rec.get(f["key"])
        if f["presence"] == "optional":
            b.put(0 if v is None else 1, 1)
            if v is None:
                continue
        t = f["type"]
        if t["kind"] == "group":
            fields(b, t["fields"], v)
        elif t["kind"] == "array":
            if not t["fixed"]:
                b.put(len(v), width(t["maxCount"]))
            for x in v:
                scalar(b, t["of"], x)
        else:
            scalar(b, t, v)

doc = json.load(sys.stdin)
out = []
for rec in doc["records"]:
    b = Bits()
    fields(b, doc["layout"]["fields"], rec)
    out.append(b.done())
print(json.dumps(out))
`;

let refDir = "";
beforeAll(() => {
  refDir = mkdtempSync(path.join(tmpdir(), "bitpacked-ref-"));
  writeFileSync(path.join(refDir, "bitpacked_ref.py"), PY_REFERENCE);
});
afterAll(() => rmSync(refDir, { recursive: true, force: true }));

function pythonPack(layoutJson: unknown, records: TypedRecord[]): string[] {
  const script = path.join(refDir, "bitpacked_ref.py");
  const wire = JSON.parse(
    JSON.stringify(records, (_k, v: unknown) => {
      if (typeof v === "bigint") return { $big: v.toString() };
      if (v instanceof Uint8Array) return { $bytes: bytesToHex(v) };
      if (typeof v === "number" && Object.is(v, -0)) return { $num: "-0.0" };
      return v;
    }),
  );
  return runPython(script, { layout: layoutJson, records: wire }) as string[];
}

const charsetLayout: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "charsets",
  fields: [
    {
      id: "d",
      key: "d",
      name: "d",
      presence: "required",
      type: { kind: "string", maxLength: 15, charset: "digits" },
      sample: { kind: "template", template: "{digits:9}" },
    },
    {
      id: "dF",
      key: "dF",
      name: "dF",
      presence: "required",
      type: { kind: "string", maxLength: 6, fixed: true, charset: "digits" },
      sample: { kind: "template", template: "{digits:4}" },
    },
    {
      id: "h",
      key: "h",
      name: "h",
      presence: "required",
      type: { kind: "string", maxLength: 8, charset: "hex" },
      sample: { kind: "template", template: "{hex:5}" },
    },
    {
      id: "hF",
      key: "hF",
      name: "hF",
      presence: "required",
      type: { kind: "string", maxLength: 4, fixed: true, charset: "hex" },
      sample: { kind: "template", template: "{hex:4}" },
    },
    {
      id: "u",
      key: "u",
      name: "u",
      presence: "required",
      type: { kind: "string", maxLength: 20, charset: "upper-alnum" },
      sample: { kind: "template", template: "AB-{digits:3} {alpha:4}" },
    },
    {
      id: "uF",
      key: "uF",
      name: "uF",
      presence: "required",
      type: { kind: "string", maxLength: 8, fixed: true, charset: "upper-alnum" },
      sample: { kind: "template", template: "{alpha:3}" },
    },
    {
      id: "a",
      key: "a",
      name: "a",
      presence: "required",
      type: { kind: "string", maxLength: 12, charset: "alnum" },
      sample: { kind: "template", template: "x{alpha:2}{digits:3}" },
    },
    {
      id: "aF",
      key: "aF",
      name: "aF",
      presence: "required",
      type: { kind: "string", maxLength: 5, fixed: true, charset: "alnum" },
      sample: { kind: "template", template: "q{digits:1}" },
    },
    {
      id: "s",
      key: "s",
      name: "s",
      presence: "required",
      type: { kind: "string", maxLength: 30, charset: "ascii" },
      sample: { kind: "choice", values: ["", "a ~!{}", "Hello, World"] },
    },
    {
      id: "sF",
      key: "sF",
      name: "sF",
      presence: "required",
      type: { kind: "string", maxLength: 6, fixed: true, charset: "ascii" },
      sample: { kind: "choice", values: ["", "ab", "a|c~ef"] },
    },
    {
      id: "w",
      key: "w",
      name: "w",
      presence: "required",
      type: { kind: "string", maxLength: 16, charset: "utf8" },
      sample: { kind: "choice", values: ["", "é", "日本", "🚢x"] },
    },
    {
      id: "wF",
      key: "wF",
      name: "wF",
      presence: "required",
      type: { kind: "string", maxLength: 8, fixed: true, charset: "utf8" },
      sample: { kind: "choice", values: ["", "ü", "🚢🚢"] },
    },
    {
      id: "tsw",
      key: "tsw",
      name: "tsw",
      presence: "optional",
      type: { kind: "timestamp", encoding: "epoch", resolution: 0.001, min: 1700000000, max: 1800000000 },
      sample: { kind: "uniform", min: 1700000000, max: 1800000000 },
    },
    {
      id: "f32raw",
      key: "f32raw",
      name: "f32raw",
      presence: "required",
      type: { kind: "float", bits: 32, min: -1, max: 1 },
      sample: { kind: "uniform", min: -1, max: 1 },
    },
  ],
};

describe("bitpacked: exact bits", () => {
  it("packs bool, enum, ranged int, quantised float and an absent optional MSB-first, zero padded", () => {
    const c = compile([
      { id: "b", key: "b", name: "b", presence: "required", type: { kind: "bool" } },
      {
        id: "e",
        key: "e",
        name: "e",
        presence: "required",
        type: {
          kind: "enum",
          values: [
            { name: "IDLE", value: 0 },
            { name: "MOVING", value: 1 },
            { name: "ALARM", value: 7 },
          ],
        },
      },
      {
        id: "n",
        key: "n",
        name: "n",
        presence: "required",
        type: { kind: "int", bits: 8, signed: false, min: 0, max: 99 },
      },
      {
        id: "t",
        key: "t",
        name: "t",
        presence: "required",
        type: { kind: "float", bits: 32, min: -40, max: 85, precision: 0.01 },
      },
      { id: "o", key: "o", name: "o", presence: "optional", type: { kind: "int", bits: 8, signed: false } },
    ]);
    // 1 | 10 | 0100101 | 01100000000110 (6150 = (21.5 + 40) / 0.01) | 0 | 0000000
    const rec = { b: true, e: "ALARM", n: 37, t: 21.5 };
    expect(hex(c.encode(rec))).toBe("c9580600");
    expect(c.decode(bytes("c9580600"))).toEqual(rec);
    // present optional: …0 → …1 then 8 bits of 200
    expect(hex(c.encode({ ...rec, o: 200 }))).toBe("c95806e400");
    expect(c.decode(bytes("c95806e400"))).toEqual({ ...rec, o: 200 });
  });

  it("packs BCD digits with a length and a fixed AIS six-bit string padded with '@'", () => {
    const c = compile([
      {
        id: "d",
        key: "d",
        name: "d",
        presence: "required",
        type: { kind: "string", maxLength: 15, charset: "digits" },
      },
      {
        id: "u",
        key: "u",
        name: "u",
        presence: "required",
        type: { kind: "string", maxLength: 3, fixed: true, charset: "upper-alnum" },
      },
    ]);
    // 0100 0000 0001 0010 0011 | 000001 ('A') 101101 ('-') 000000 ('@' pad) | 00
    expect(hex(c.encode({ d: "0123", u: "A-" }))).toBe("401230" + "6d00");
    expect(c.decode(bytes("4012306d00"))).toEqual({ d: "0123", u: "A-" });
  });

  it("writes raw IEEE bits for floats without a full range/precision and keeps -0", () => {
    const c = compile([
      { id: "a", key: "a", name: "a", presence: "required", type: { kind: "float", bits: 32 } },
      { id: "b", key: "b", name: "b", presence: "required", type: { kind: "float", bits: 64, min: -1, max: 1 } },
    ]);
    expect(hex(c.encode({ a: 1.5, b: -0 }))).toBe("3fc00000" + "8000000000000000");
    expect(Object.is(c.decode(bytes("3fc000008000000000000000")).b, -0)).toBe(true);
  });

  it("carries a text timestamp as its time value: 32-bit seconds window plus 4 bits for tenths", () => {
    const layout = parseLayout(paperPreset);
    const plan = bitpackedPlan(layout);
    const time = plan.fields.find((f) => f.key === "time")!;
    expect(time.minBits).toBe(36);
    expect(time.step).toBe(0.1);
    const c = compile([
      {
        id: "t",
        key: "t",
        name: "t",
        presence: "required",
        type: { kind: "timestamp", encoding: "text", textFormat: "DDMMYY hhmmss.s" },
      },
    ]);
    // 17487783123 tenths = 0x4_125A_64D3 in 36 bits, then 4 padding bits
    expect(hex(c.encode({ t: 1748778312.3 }))).toBe("4125a64d30");
    expect(c.decode(bytes("4125a64d30"))).toEqual({ t: 1748778312.3 });
  });

  it("packs the paper record into 490 bits (62 bytes) for every sample and decodes the samples exactly", () => {
    const layout = parseLayout(paperPreset);
    const plan = bitpackedPlan(layout);
    expect(Object.fromEntries(plan.fields.map((f) => [f.key, f.maxBits]))).toEqual({
      msisdn: 64,
      iso6346: 70,
      time: 36,
      rssi: 7,
      cgi: 149,
      "ble-m": 1,
      "bat-soc": 7,
      acc: 78,
      temperature: 14,
      humidity: 14,
      pressure: 21,
      door: 7,
      gnss: 1,
      latitude: 15,
      longitude: 16,
      altitude: 20,
      speed: 10,
      heading: 16,
      nsat: 7,
      hdop: 9,
    });
    expect([plan.minBits, plan.maxBits, plan.minBytes, plan.maxBytes]).toEqual([286, 562, 36, 71]);
    const c = bitpackedCodec.compile(layout);
    const samples = generateSamples(layout, 1000, 7);
    for (const r of samples) {
      const b = c.encode(r);
      expect(b.length).toBe(62);
      expect(c.decode(b)).toEqual(r);
    }
  });
});

describe("bitpacked: bytes equal an independent Python packer", () => {
  const cases: Array<[string, LayoutInput]> = [
    ["paper preset", paperPreset],
    ["every-type fixture", everyTypeLayout],
    ["every charset", charsetLayout],
  ];
  for (const [name, input] of cases) {
    it(name, () => {
      const layout = parseLayout(input);
      const c = bitpackedCodec.compile(layout);
      const records = generateSamples(layout, 300, 11);
      const ours = records.map((r) => hex(c.encode(r)));
      expect(pythonPack(layout, records)).toEqual(ours);
      for (let i = 0; i < records.length; i++) {
        const back = c.decode(bytes(ours[i]!));
        expect(hex(c.encode(back))).toBe(ours[i]);
      }
    });
  }
});

function flatPlan(
  fields: BitpackedFieldPlan[],
  out = new Map<string, BitpackedFieldPlan>(),
): Map<string, BitpackedFieldPlan> {
  for (const f of fields) {
    out.set(f.path, f);
    if (f.fields) flatPlan(f.fields, out);
  }
  return out;
}

describe("bitpacked: quantisation error", () => {
  it("reports step/2 (+ float32 rounding) and the measured worst case over 10 000 uniform samples reaches it", () => {
    const fields: LayoutInput["fields"] = [
      {
        id: "x64",
        key: "x64",
        name: "x64",
        presence: "required",
        type: { kind: "float", bits: 64, min: -1000, max: 1000, precision: 0.001 },
      },
      {
        id: "x32",
        key: "x32",
        name: "x32",
        presence: "required",
        type: { kind: "float", bits: 32, min: -1, max: 1, precision: 0.001 },
      },
      {
        id: "odd",
        key: "odd",
        name: "odd",
        presence: "required",
        type: { kind: "float", bits: 64, min: 0, max: 1.08, precision: 0.3 },
      },
      {
        id: "fx",
        key: "fx",
        name: "fx",
        presence: "required",
        type: { kind: "fixed", scale: 0.5, offset: 0.25, min: -10, max: 10 },
      },
      {
        id: "ts",
        key: "ts",
        name: "ts",
        presence: "required",
        type: { kind: "timestamp", encoding: "epoch", resolution: 60, min: 1700000000, max: 1800000000 },
      },
    ];
    const layout = layoutOf(fields);
    const plan = flatPlan(bitpackedPlan(layout).fields);
    expect(plan.get("x64")!.step).toBe(0.001);
    expect(plan.get("x64")!.maxError).toBeCloseTo(0.0005, 10);
    expect(plan.get("x32")!.maxError).toBeCloseTo(0.0005 + 2 ** -24, 12);
    expect(plan.get("odd")!.minBits).toBe(3);
    expect(plan.get("fx")!.step).toBe(0.5);
    expect(plan.get("ts")!.maxError).toBeCloseTo(30, 5);
    const c = bitpackedCodec.compile(layout);
    const rng = new Prng(2026);
    const worst: Record<string, number> = { x64: 0, x32: 0, odd: 0, fx: 0, ts: 0 };
    for (let i = 0; i < 10_000; i++) {
      const rec: TypedRecord = {
        x64: rng.uniform(-1000, 1000),
        x32: toFloat32(rng.uniform(-1, 1)),
        odd: rng.uniform(0, 1.08),
        fx: rng.uniform(-10, 10),
        ts: rng.uniform(1700000000, 1800000000),
      };
      const back = c.decode(c.encode(rec));
      for (const k of Object.keys(worst))
        worst[k] = Math.max(worst[k]!, Math.abs((back[k] as number) - (rec[k] as number)));
    }
    for (const k of Object.keys(worst)) {
      const bound = plan.get(k)!.maxError;
      expect(worst[k], k).toBeLessThanOrEqual(bound);
      expect(worst[k], k).toBeGreaterThanOrEqual(0.99 * bound);
    }
  });

  it("keeps decoded values inside the range when the range is not a whole number of steps", () => {
    // 3.6 steps: the 4th step (1.2) is clamped to max, still within half a step of what was sent
    const c = compile([
      {
        id: "v",
        key: "v",
        name: "v",
        presence: "required",
        type: { kind: "float", bits: 64, min: 0, max: 1.08, precision: 0.3 },
      },
    ]);
    expect(c.decode(c.encode({ v: 1.08 }))).toEqual({ v: 1.08 });
    expect(c.decode(c.encode({ v: 1.05 }))).toEqual({ v: 1.08 });
    expect(c.decode(c.encode({ v: 1 }))).toEqual({ v: 0.9 });
    expect(c.decode(c.encode({ v: 0.2 }))).toEqual({ v: 0.3 });
    expect(() => c.decode(bytes("a0"))).toThrow(/step 5 beyond the last step 4/);
  });
});

describe("bitpacked: encode errors name the field", () => {
  const layout = parseLayout(everyTypeLayout);
  const c = bitpackedCodec.compile(layout);
  const base = generateSamples(layout, 1, 3)[0]!;
  const bad = (patch: Record<string, FieldValue | undefined>, message: RegExp) => {
    const rec = { ...base, ...patch } as TypedRecord;
    for (const k of Object.keys(patch)) if (patch[k] === undefined) delete rec[k];
    let err: unknown;
    try {
      c.encode(rec);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EncodeError);
    expect((err as Error).message).toMatch(message);
  };
  it("rejects values outside the range, NaN and infinities", () => {
    bad({ f32: 85.5 }, /^bitpacked: f32: 85\.5 is outside -40…85$/);
    bad({ f32: Number.NaN }, /^bitpacked: f32: NaN cannot be bit-packed$/);
    bad({ f64: Number.POSITIVE_INFINITY }, /^bitpacked: f64: Infinity cannot be bit-packed$/);
    bad({ lat: 90.5 }, /lat: 90\.5 is outside -90…90/);
    bad({ ts: 1500000000 }, /ts: 1500000000 is outside 1577836800…2524608000/);
    bad({ when: -1 }, /when: -1 is outside 0…4294967295/);
    bad({ u8: 256 }, /u8: 256 is outside 0…255/);
    bad({ i64: 1n << 63n }, /i64: 9223372036854775808 is outside/);
  });
  it("names nested and element paths", () => {
    bad({ gps: { lat: 91, lon: 0 } }, /^bitpacked: gps\.lat: 91 is outside -90…90$/);
    bad({ temps: [1, 99] }, /^bitpacked: temps\[1\]: 99 is outside -40…85$/);
    bad({ acc: [1, 2] }, /acc: needs exactly 3 elements, got 2/);
    bad({ mode: "PARKED" }, /mode: "PARKED" is not one of IDLE, MOVING, ALARM/);
    bad({ flag: undefined }, /^bitpacked: flag: is required$/);
  });
  it("rejects strings and bytes it cannot carry", () => {
    bad({ note: "x".repeat(21) }, /note: is 21 UTF-8 bytes, more than maxLength 20/);
    bad({ code: "ab" }, /code: character "a" is outside the upper-alnum charset/);
    bad({ note: "\ud800x" }, /note: holds a lone surrogate/);
    bad({ mac: new Uint8Array(5) }, /mac: needs exactly 6 bytes, got 5/);
    const h = compile([
      {
        id: "h",
        key: "h",
        name: "h",
        presence: "required",
        type: { kind: "string", maxLength: 4, fixed: true, charset: "hex" },
      },
    ]);
    expect(() => h.encode({ h: "AB" })).toThrow(/needs exactly 4 hex characters/);
    expect(h.decode(h.encode({ h: "beef" }))).toEqual({ h: "BEEF" });
  });
});

describe("bitpacked: strict decoding", () => {
  const c = compile([
    {
      id: "e",
      key: "e",
      name: "e",
      presence: "required",
      type: {
        kind: "enum",
        values: [
          { name: "A", value: 0 },
          { name: "B", value: 1 },
          { name: "C", value: 2 },
        ],
      },
    },
    {
      id: "n",
      key: "n",
      name: "n",
      presence: "required",
      type: { kind: "int", bits: 8, signed: false, min: 0, max: 99 },
    },
    { id: "s", key: "s", name: "s", presence: "required", type: { kind: "string", maxLength: 5, charset: "digits" } },
  ]);
  // e 2 bits | n 7 bits | s: length 3 bits + 4 bits per digit
  it("round-trips the reference message", () => {
    // 01 0000101 010 1001 1000 + 4 padding bits
    const good = c.encode({ e: "B", n: 5, s: "98" });
    expect(hex(good)).toBe("42a980");
    expect(c.decode(good)).toEqual({ e: "B", n: 5, s: "98" });
  });
  const rejects = (h: string, message: RegExp) => {
    let err: unknown;
    try {
      c.decode(bytes(h));
    } catch (e) {
      err = e;
    }
    expect(err, h).toBeInstanceOf(DecodeError);
    expect((err as Error).message).toMatch(message);
  };
  it("rejects trailing bytes, padding bits and truncation", () => {
    rejects("42a98000", /1 trailing bytes after the message/);
    rejects("42a981", /non-zero padding bits/);
    rejects("42a9", /truncated/);
    rejects("", /truncated/);
  });
  it("rejects indices beyond the enum, the range, the length and the alphabet", () => {
    rejects("c2a980", /e: enum index 3 beyond the 3 values/);
    rejects("7fa980", /n: 127 is outside 0…99/);
    rejects("42f980", /s: length 7 exceeds maxLength 5/);
    rejects("42af80", /s: symbol 15 is not a digits character/);
  });
  it("rejects raw float NaN bits, bad UTF-8 and text after padding", () => {
    const f = compile([{ id: "f", key: "f", name: "f", presence: "required", type: { kind: "float", bits: 32 } }]);
    expect(() => f.decode(bytes("7fc00000"))).toThrow(DecodeError);
    const w = compile([
      { id: "w", key: "w", name: "w", presence: "required", type: { kind: "string", maxLength: 3, fixed: true } },
    ]);
    expect(() => w.decode(bytes("c3 28 00"))).toThrow(/invalid UTF-8/);
    expect(() => w.decode(bytes("41 00 41"))).toThrow(/text after the NUL padding/);
    expect(w.decode(bytes("41 00 00"))).toEqual({ w: "A" });
    const u = compile([
      {
        id: "u",
        key: "u",
        name: "u",
        presence: "required",
        type: { kind: "string", maxLength: 2, fixed: true, charset: "upper-alnum" },
      },
    ]);
    // '@' then 'A': padding in the middle
    expect(() => u.decode(bytes("0010"))).toThrow(/text after the padding/);
    // '[' (AIS 27) is a real AIS character but outside the charset
    expect(() => u.decode(bytes("6c00"))).toThrow(/symbol 27 is not a upper-alnum character/);
  });
});

describe("bitpacked: spans", () => {
  it("gives a shared byte to the field with most bits (a 3-bit field can own no byte) and keeps exact bit spans", () => {
    const c = bitpackedCodec.compile(
      layoutOf([
        {
          id: "a",
          key: "a",
          name: "a",
          presence: "required",
          type: { kind: "int", bits: 8, signed: false, min: 0, max: 7 },
        },
        { id: "b", key: "b", name: "b", presence: "optional", type: { kind: "int", bits: 16, signed: false } },
        {
          id: "s",
          key: "s",
          name: "s",
          presence: "required",
          type: { kind: "string", maxLength: 3, charset: "digits" },
        },
      ]),
    ) as import("../src/formats/bitpacked/codec.ts").BitpackedCompiled;
    const enc = c.encodeWithBitSpans({ a: 5, b: 513, s: "12" });
    expect(enc.bits).toEqual([
      { start: 0, end: 3, field: "a", role: "value" },
      { start: 3, end: 4, field: "b", role: "framing" },
      { start: 4, end: 20, field: "b", role: "value" },
      { start: 20, end: 22, field: "s", role: "length" },
      { start: 22, end: 30, field: "s", role: "value" },
      { start: 30, end: 32, field: "", role: "framing" },
    ]);
    expect(hex(enc.bytes)).toBe("b0201848");
    // byte 0: a 3 bits, b 1 + 4 → b; byte 2: b 4, s 2 + 2 → b; byte 3: s 6, padding never wins
    expect(enc.spans).toEqual([
      { start: 0, end: 3, field: "b", role: "value" },
      { start: 3, end: 4, field: "s", role: "value" },
    ]);
    expect(c.encodeWithSpans({ a: 5, b: 513, s: "12" }).bytes).toEqual(c.encode({ a: 5, b: 513, s: "12" }));
  });
});
