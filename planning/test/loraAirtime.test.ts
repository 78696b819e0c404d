// LoRa time on air against an implementation nobody here wrote: liblora 0.0.3 (PyPI; Michael Kuyper's Python library
// derived from Semtech's Basic MAC, `loramsg.airtime`), installed into .venv by .ci/setup-python.sh from
// planning/reference/requirements.txt. Every data rate of EU868 and US915, every payload the data rate allows.
import { describe, expect, it } from "vitest";
import { runPython } from "#codecs-test/helpers/python.ts";
import {
  LORA_REGIONS,
  lorawanDataRates,
  lorawanRadio,
  loraPayloadSymbols,
  loraSymbolSeconds,
  loraTimeOnAir,
  type LorawanRadio,
} from "../src/index.ts";

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

describe("LoRa time on air against the Regional Parameters' own table (RP002, US902-928)", () => {
  // US915 keeps every uplink under the 400 ms dwell time, and RP002 sets the slow data rates' largest payloads so that
  // they do: each of DR0–DR2's maximum is exactly the largest FRMPayload whose frame stays under 400 ms
  it.each([0, 1, 2])("US915 DR%i: the maximum is the last payload under 400 ms", (dr) => {
    const r = lorawanRadio("US915", dr)!;
    const at = (n: number) => loraTimeOnAir({ ...r, payloadBytes: n + r.macOverheadBytes.value });
    expect(at(r.maxPayloadBytes.value)).toBeLessThanOrEqual(0.4);
    expect(at(r.maxPayloadBytes.value + 1)).toBeGreaterThan(0.4);
  });

  it("DR3 and DR4 at the LoRaWAN maximum (242 B) stay under 400 ms too", () => {
    for (const dr of [3, 4]) {
      const r = lorawanRadio("US915", dr)!;
      expect(loraTimeOnAir({ ...r, payloadBytes: 242 + 13 })).toBeLessThanOrEqual(0.4);
    }
  });
});

describe("a published worked example of AN1200.13's formula", () => {
  // the public spreadsheet "Formulas taken from AN1200.13 (LoRa Modem Designers Guide)" shared on The Things Network's
  // forum: 13 bytes (an empty LoRaWAN frame), SF9, 125 kHz, explicit header, CR 4/5, 8 preamble symbols, no LDRO →
  // Tsym 4.096 ms, Tpreamble 50.176 ms, 28 payload symbols, Tpacket 164.864 ms; at 1 % a packet may start every 16.4864 s
  it("SF9, 13 B: 164.864 ms, and 16.4864 s between packets at a 1 % duty cycle", () => {
    const frame = {
      sf: 9,
      bandwidthHz: 125_000,
      codingRate: 1 as const,
      preamble: 8,
      explicitHeader: true,
      crc: true,
      lowDataRateOptimize: false,
      payloadBytes: 13,
    };
    expect(loraSymbolSeconds(9, 125_000)).toBeCloseTo(0.004096, 12);
    expect(loraPayloadSymbols(frame)).toBe(28);
    expect(loraTimeOnAir(frame)).toBeCloseTo(0.164864, 12);
    expect(loraTimeOnAir(frame) / 0.01).toBeCloseTo(16.4864, 9);
    // the same frame is an empty FRMPayload on EU868 DR3
    const dr3 = lorawanRadio("EU868", 3)!;
    expect(loraTimeOnAir({ ...dr3, payloadBytes: 0 + dr3.macOverheadBytes.value })).toBeCloseTo(0.164864, 12);
  });
});
