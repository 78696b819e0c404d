// Schema evolution of batches (issue #27): each kind of batch edit, with the expected verdicts per format
// and wire form (old decoders reading new messages / new decoders reading old ones; C compatible,
// D degraded, B breaking), every verdict checked against the batch codecs themselves: seeded series
// encoded with one version, decoded with the other.
import { describe, expect, it } from "vitest";
import { buoyBatch } from "./fixtures/batchExample.ts";
import { diffLayouts, type Compat, type LayoutDiff } from "../src/evolution/diff.ts";
import type { FormatId } from "../src/formats/registry.ts";
import type { Batch, Field, LayoutInput } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";

// the worked example's buoy, with a temperature that wanders (not always at its max rate)
const BASE: LayoutInput = {
  ...buoyBatch,
  fields: (buoyBatch.fields as Field[]).map((f) =>
    f.id === "temp" ? { ...f, sample: { kind: "randomWalk", start: 12, maxRate: 0.01, decimals: 1 } } : f,
  ),
};
const batch = BASE.batch as Batch;

type Edit = (l: LayoutInput) => LayoutInput;
const withBatch =
  (b: Partial<Batch> | undefined): Edit =>
  (l) =>
    b === undefined ? { ...l, batch: undefined } : { ...l, batch: { ...(l.batch as Batch), ...b } };
const rates = (temp: number | undefined, extra: Batch["perReading"] = []): Batch["perReading"] => [
  { field: "t" },
  { field: "temp", ...(temp !== undefined ? { maxRate: temp } : {}) },
  { field: "ok" },
  ...extra,
];

/** json (CBOR, MessagePack, PSON alike) · protobuf · struct (Struct+Zlib alike) · sbe · bitpacked: "columns delta" */
type Row = [
  name: string,
  from: Edit,
  to: Edit,
  json: string,
  protobuf: string,
  struct: string,
  sbe: string,
  bits: string,
];
const same: Edit = (l) => l;

const CASES: Row[] = [
  ["turn batching on", withBatch(undefined), same, "BB BB", "BB BB", "BB BB", "BB BB", "BB BB"],
  ["turn batching off", same, withBatch(undefined), "BB BB", "BB BB", "BB BB", "BB BB", "BB BB"],
  [
    "send a field with every reading",
    same,
    withBatch({ perReading: rates(0.005, [{ field: "dev" }]) }),
    "BB BB",
    "BB BB",
    "BB BB",
    "BB BB",
    "BB BB",
  ],
  [
    "send a per-reading field once per message",
    same,
    withBatch({ perReading: rates(0.005).filter((p) => p.field !== "ok") }),
    "BB BB",
    "BB BB",
    "BB BB",
    "BB BB",
    "BB BB",
  ],
  // D = ceil(0.01 × 60 / 0.1) + 1 = 7 against 4: bit-packed moves every later bit; the others refuse the wider differences
  ["raise a max rate", same, withBatch({ perReading: rates(0.01) }), "CC DC", "CC DC", "CC DC", "CC DC", "CC BB"],
  ["lower a max rate", withBatch({ perReading: rates(0.01) }), same, "CC CD", "CC CD", "CC CD", "CC CD", "CC BB"],
  ["double the interval", same, withBatch({ intervalSeconds: 120 }), "CC DC", "CC DC", "CC DC", "CC DC", "CC BB"],
  ["keyframes every 3 → 2", same, withBatch({ keyframeEvery: 2 }), "CC BB", "CC BB", "CC BB", "CC BB", "CC BB"],
  // devices fill their messages: every full message of 8 is over an old decoder's limit of 4
  [
    "more readings per message",
    same,
    withBatch({ readings: { kind: "fixed", count: 8 } }),
    "BC BC",
    "BC BC",
    "BC BC",
    "BC BC",
    "BB BB",
  ],
  [
    "fewer readings per message",
    withBatch({ readings: { kind: "fixed", count: 8 } }),
    same,
    "CB CB",
    "CB CB",
    "CB CB",
    "CB CB",
    "BB BB",
  ],
  ["no time field", same, withBatch({ time: undefined }), "CC BB", "CC BB", "CC BB", "CC BB", "CC BB"],
  // same bounds in units would not help: the delta form sends whole steps of the precision
  [
    "a finer precision",
    same,
    (l) => ({
      ...l,
      fields: (l.fields as Field[]).map((f) =>
        f.id === "temp" ? { ...f, type: { ...f.type, precision: 0.05 } as Field["type"] } : f,
      ),
    }),
    "CC BB",
    "CC BB",
    "CC BB",
    "CC BB",
    "BB BB",
  ],
];

const LETTER: Record<Compat, string> = { compatible: "C", degraded: "D", breaking: "B" };
const forms = (d: LayoutDiff, f: FormatId) =>
  d.formats
    .find((x) => x.format === f)!
    .forms!.map((x) => LETTER[x.oldReadsNew] + LETTER[x.newReadsOld])
    .join(" ");
const show = (d: LayoutDiff) =>
  JSON.stringify(
    d.formats.map((f) => [f.format, f.findings.map((x) => `${x.form} ${x.direction}/${x.severity}: ${x.message}`)]),
    null,
    1,
  );

describe("schema evolution of batches: the verdict table", () => {
  it.each(CASES)("%s", (_name, from, to, json, protobuf, struct, sbe, bitpacked) => {
    const d = diffLayouts(parseLayout(from(BASE)), parseLayout(to(BASE)));
    const got = {
      json: forms(d, "json"),
      protobuf: forms(d, "protobuf"),
      struct: forms(d, "struct"),
      sbe: forms(d, "sbe"),
      bitpacked: forms(d, "bitpacked"),
    };
    expect(got, show(d)).toEqual({ json, protobuf, struct, sbe, bitpacked });
    for (const f of ["cbor", "msgpack", "pson"] as const) expect(forms(d, f)).toBe(json);
    expect(forms(d, "struct-zlib")).toBe(struct);
    for (const f of d.formats) {
      // the format's verdict is the worse form's, and every finding names its form
      const worst = (dir: "oldReadsNew" | "newReadsOld") =>
        f.forms!.map((x) => x[dir]).sort((a, b) => "cdb".indexOf(b[0]!) - "cdb".indexOf(a[0]!))[0];
      expect([f.oldReadsNew, f.newReadsOld]).toEqual([worst("oldReadsNew"), worst("newReadsOld")]);
      for (const x of f.findings) {
        expect(x.form, x.message).toBeDefined();
        if (x.severity === "breaking") expect(x.advice, `${f.format}: ${x.message}`).toBeTruthy();
      }
    }
    // the edit is listed (a batch setting as a "batch" change, a field's precision as a type change)
    expect(d.changes.length).toBeGreaterThan(0);
  });

  it.each(CASES)("%s: the batch codecs agree (encode with one version, decode with the other)", (_n, from, to) => {
    const d = diffLayouts(parseLayout(from(BASE)), parseLayout(to(BASE)), { probe: 30 });
    for (const v of d.formats) {
      const o = v.observed!;
      expect(o.samples, v.format).toBeGreaterThan(20);
      for (const dir of ["oldReadsNew", "newReadsOld"] as const) {
        const at = `${v.format} ${dir}: analysis ${v[dir]}, codecs ${o[dir]} (${o.examples.join(" | ")})`;
        if (v[dir] === "breaking") expect(o[dir], at).not.toBe("compatible");
        else if (v[dir] === "compatible") expect(o[dir], at).toBe("compatible");
        else expect(o[dir], at).not.toBe("breaking");
      }
    }
  });

  it("tells the batch edit in words in front of the wire finding it causes", () => {
    const d = diffLayouts(parseLayout(BASE), parseLayout(withBatch({ perReading: rates(0.01) })(BASE)));
    const bits = d.formats.find((f) => f.format === "bitpacked")!;
    const pb = d.formats.find((f) => f.format === "protobuf")!;
    expect(bits.findings.map((f) => [f.form, f.field, f.message])).toEqual([
      [
        "delta",
        "temp_d",
        `Temperature's max rate 0.005 → 0.01 °C/s sets another difference width: from "temp_d" on, the bit-packed bytes moved or changed width: every later field is misread`,
      ],
    ]);
    expect(pb.findings.map((f) => [f.form, f.field, f.severity, f.message])).toEqual([
      [
        "delta",
        "temp_d",
        "degraded",
        "Temperature's max rate 0.005 → 0.01 °C/s sets another difference width: range widened: old decoders refuse the new values outside their range",
      ],
    ]);
    expect(d.changes.filter((c) => c.kind === "batch").map((c) => c.detail)).toEqual([
      "Temperature's max rate 0.005 → 0.01 °C/s sets another difference width",
    ]);
  });

  it("identical batch layouts are compatible in every form, with no changes", () => {
    const d = diffLayouts(parseLayout(BASE), parseLayout(BASE));
    expect(d.changes).toEqual([]);
    for (const f of d.formats) {
      expect([f.oldReadsNew, f.newReadsOld, f.findings]).toEqual(["compatible", "compatible", []]);
      expect(f.forms!.map((x) => x.form)).toEqual(["columns", "delta"]);
    }
  });

  it('"as many as fit" is compared at the counts a caller measures, and said to be not compared without them', () => {
    const fit = withBatch({ readings: { kind: "fit", platform: "astrocast" } });
    const a = parseLayout(fit(BASE));
    const b = parseLayout(withBatch({ keyframeEvery: 2 })(fit(BASE)));
    const blind = diffLayouts(a, b, { formats: ["protobuf"] }).formats[0]!;
    expect(blind.findings.every((f) => f.message.includes("was not compared"))).toBe(true);
    expect([blind.oldReadsNew, blind.newReadsOld]).toEqual(["degraded", "degraded"]);
    const told = diffLayouts(a, b, { formats: ["protobuf"], readingsPerMessage: () => 6 }).formats[0]!;
    expect(told.forms!.map((x) => LETTER[x.oldReadsNew] + LETTER[x.newReadsOld])).toEqual(["CC", "BB"]);
    expect(diffLayouts(a, a, { formats: ["protobuf"] }).formats[0]!.findings).toEqual([]);
  });
});
