// Kaitai export, proven with the official compiler: each .ksy (Struct and bit-packed) is compiled by the
// kaitai-struct-compiler npm package to JavaScript, run with the unmodified kaitai-struct runtime on our
// encoder's bytes, and every field it reads must be the value of the source record (prove.ts, expect.ts).
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { prove, SAMPLES } from "./prove.ts";
import { generateKaitai, kaitaiSpec } from "../../src/kaitai.ts";
import { EXPORT_LAYOUTS, layoutNamed } from "../support/layouts.ts";

describe("Kaitai Struct export", () => {
  it("writes YAML that parses back to the spec the compiler takes", () => {
    for (const { layout } of EXPORT_LAYOUTS) {
      const files = generateKaitai(layout);
      expect(files.map((f) => f.path)).toEqual([
        expect.stringMatching(/_struct\.ksy$/),
        expect.stringMatching(/_bitpacked\.ksy$/),
      ]);
      files.forEach((f, i) => {
        const back = parseYaml(f.content) as unknown;
        expect(JSON.parse(JSON.stringify(back))).toEqual(
          JSON.parse(JSON.stringify(kaitaiSpec(layout, (["struct", "bitpacked"] as const)[i]!))),
        );
      });
    }
  });

  it("paper: the struct spec is the paper's >HHHBHBB… layout with the strings appended", () => {
    const spec = kaitaiSpec(layoutNamed("paper"), "struct") as {
      meta: { endian: string };
      seq: Array<{ id: string; type?: string }>;
    };
    expect(spec.meta.endian).toBe("be");
    expect(spec.seq.slice(0, 8).map((s) => `${s.id}:${s.type}`)).toEqual([
      "msisdn_len:u2",
      "iso6346_len:u2",
      "time_len:u2",
      "rssi:u1",
      "cgi_len:u2",
      "ble_m:u1",
      "bat_soc:u1",
      "acc:f4",
    ]);
    expect(spec.seq.slice(-5).map((s) => s.id)).toEqual(["msisdn", "iso6346", "time", "cgi", "door"]);
  });

  for (const { name, layout } of EXPORT_LAYOUTS) {
    for (const format of ["struct", "bitpacked"] as const) {
      it(`${name} (${format}): the compiled parser reads our bytes to our values`, async () => {
        const n = await prove(layout, format);
        expect(n).toBeGreaterThan(SAMPLES * 0.8);
      });
    }
  }
});
