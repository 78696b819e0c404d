// The SenML yardstick of bench:batch: what Python's cbor2 reads from our SenML CBOR is the pack, and
// our bytes are exactly as long as cbor2's canonical (shortest-float) encoding of the same pack.
import { describe, expect, it } from "vitest";
import type { Field } from "#codecs";
import { runPython } from "#codecs-test/helpers/python.ts";
import { senmlCbor, senmlJson, senmlPack } from "../batch/senml.ts";

const num = (key: string): Field => ({
  id: key,
  key,
  name: key,
  presence: "required",
  type: { kind: "float", bits: 64 },
});
const fields = {
  perReading: [num("t"), num("lat"), { ...num("on"), type: { kind: "bool" } } as Field],
  once: [{ ...num("dev"), type: { kind: "string", maxLength: 8 } } as Field, num("bat")],
};
const batch = {
  once: { dev: "ab", bat: 3.5 },
  readings: [
    { t: 1_700_000_000, lat: 45.772175, on: true },
    { t: 1_700_000_900, lat: 45.5, on: false },
  ],
};
const opts = { baseName: "urn:dev:x:", timeKey: "t", intervalSeconds: 900 };

describe("SenML (RFC 8428) pack of a batch", () => {
  it("puts base name and base time on the first record, times relative to it, once-fields at the base time", () => {
    expect(senmlPack(batch, fields, opts)).toEqual([
      { bn: "urn:dev:x:", bt: 1_700_000_000, n: "lat", v: 45.772175 },
      { n: "on", vb: true },
      { n: "lat", v: 45.5, t: 900 },
      { n: "on", vb: false, t: 900 },
      { n: "dev", vs: "ab" },
      { n: "bat", v: 3.5 },
    ]);
    expect(new TextDecoder().decode(senmlJson(senmlPack(batch, fields, opts)))).toMatch(
      /^\[\{"bn":"urn:dev:x:","bt":1700000000,"n":"lat","v":45.772175\},/,
    );
  });

  it("CBOR with RFC 8428 labels that cbor2 reads back, as short as cbor2's canonical form", () => {
    const packs = [
      senmlPack(batch, fields, opts),
      [
        { n: "x", v: 0.5 },
        { n: "y", v: -65504 },
        { n: "z", v: 1e300 },
        { n: "w", v: -1.25e-3 },
        { n: "i", v: -70000 },
      ],
    ];
    const bytes = packs.map((p) => senmlCbor(p));
    const got = runPython("bench/test/senml_cbor2.py", { hex: bytes.map((b) => Buffer.from(b).toString("hex")) }) as {
      pack: Record<string, unknown>[];
      canonical: number;
    }[];
    const LABEL: Record<string, string> = { bn: "-2", bt: "-3", n: "0", v: "2", vs: "3", vb: "4", t: "6" };
    packs.forEach((pack, i) => {
      expect(got[i]!.pack).toEqual(
        pack.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [LABEL[k], v]))),
      );
      expect(bytes[i]!.length).toBe(got[i]!.canonical);
    });
    // the JSON's text labels in CBOR: "bn" is 62 62 6e where RFC 8428's label -2 is 21
    expect(Buffer.from(senmlCbor(packs[0]!, "json")).toString("hex")).toMatch(/^86a462626e/);
    expect(Buffer.from(bytes[0]!).toString("hex")).toMatch(/^86a421/);
    // half floats where they hold the value: 0.5 is f9 3800
    expect(Buffer.from(bytes[1]!).toString("hex")).toContain("02f93800");
  });
});
