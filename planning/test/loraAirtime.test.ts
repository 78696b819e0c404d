// LoRa time on air against an implementation nobody here wrote: liblora 0.0.3 (PyPI; Michael Kuyper's Python library
// derived from Semtech's Basic MAC, `loramsg.airtime`), installed into .venv by .ci/setup-python.sh from
// planning/reference/requirements.txt. Every data rate of EU868 and US915, every payload the data rate allows.
import { describe, expect, it } from "vitest";
import { runPython } from "#codecs-test/helpers/python.ts";
import { LORA_REGIONS, lorawanDataRates, lorawanRadio, loraTimeOnAir, type LorawanRadio } from "../src/index.ts";

const allRadios = LORA_REGIONS.flatMap((region) => lorawanDataRates(region).map((dr) => lorawanRadio(region, dr)!));

describe("LoRa time on air equals liblora 0.0.3 (Semtech Basic MAC's formula, in Python)", () => {
  it("covers EU868 DR0–DR6 and US915 DR0–DR4", () => {
    expect(allRadios.map((r) => `${r.region} DR${r.dataRate}`)).toEqual([
      ...[0, 1, 2, 3, 4, 5, 6].map((dr) => `EU868 DR${dr}`),
      ...[0, 1, 2, 3, 4].map((dr) => `US915 DR${dr}`),
    ]);
  });

  it.each(allRadios.map((r): [string, LorawanRadio] => [`${r.region} DR${r.dataRate}`, r]))(
    "%s: every FRMPayload from 0 to the data rate's maximum",
    (_name, r) => {
      const sizes = Array.from({ length: r.maxPayloadBytes.value + 1 }, (_, n) => n + r.macOverheadBytes.value);
      const theirs = runPython(
        "planning/reference/lora_airtime.py",
        sizes.map((plen) => ({ sf: r.sf, bw: r.bandwidthHz, plen })),
      ) as number[];
      expect(theirs).toHaveLength(sizes.length);
      sizes.forEach((plen, k) => {
        const ours = loraTimeOnAir({ ...r, payloadBytes: plen }) * 1e6;
        // liblora rounds up to a whole microsecond: ours must lie in (theirs − 1, theirs]
        expect(ours, `PHY payload ${plen} B`).toBeGreaterThan(theirs[k]! - 1);
        expect(ours, `PHY payload ${plen} B`).toBeLessThanOrEqual(theirs[k]! + 1e-6);
      });
    },
  );
});
