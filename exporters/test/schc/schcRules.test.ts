// The proof nobody here wrote: microschc (PyPI) loads the exported rule set, compresses the packets the
// studio builds to the same bytes the studio's compressor writes, and rebuilds the original packets.
import { describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import { coapIpv6Packet, schcCompress, schcPacketBytes, schcUplinkRule, type SchcParams } from "#codecs/plans";
import { applyWithMicroschc, hex, SCHC_CASES as cases } from "./microschc.ts";
import { parseOptions } from "../../src/options.ts";
import { generateSchcRules, microschcContext, schcParamsFor, schcRulesOptions } from "../../src/schcRules.ts";
import type { ExportFile } from "../../src/types.ts";

const paper = parseLayout(presetById("paper")!.layout);
function proveSame(params: SchcParams, files: ExportFile[]) {
  const packets = cases.map((c) => coapIpv6Packet(params, c.counter, c.payload));
  const applied = applyWithMicroschc(files, packets);
  const rule = schcUplinkRule(params);
  cases.forEach((c, i) => {
    const ours = schcCompress(params, c.counter, c.payload);
    expect(applied[i]!.schc, `payload ${c.payload.length} B`).toBe(hex(ours));
    expect(ours.length).toBe(schcPacketBytes(rule, c.payload.length));
    expect(applied[i]!.restored, `payload ${c.payload.length} B restored`).toBe(hex(packets[i]!));
  });
  return applied;
}

describe("SCHC rule set export, applied by microschc", () => {
  it("the paper preset's default rule: microschc writes the studio's bytes (2 B + payload) and restores the packet", () => {
    const applied = proveSame(schcParamsFor(paper), generateSchcRules(paper));
    // rule id 8 bits + Message ID 4 + Token 4, then the payload: whole bytes, no padding
    expect(applied.map((a) => a.bits)).toEqual(cases.map((c) => 16 + 8 * c.payload.length));
  });

  it("the addresses and ports the user sets are in the rule, and still round-trip", () => {
    const raw = {
      schcDeviceAddress: "fd00:5a7::17",
      schcServerAddress: "2a01:4f8:1:2::c0a9",
      schcDevicePort: 40123,
      schcServerPort: 5684,
    };
    const o = parseOptions(schcRulesOptions, raw);
    const files = generateSchcRules(paper, o);
    const json = files.find((f) => f.path.endsWith(".schc.json"))!.content;
    expect(json).toContain("fd0005a7000000000000000000000017");
    expect(json).toContain('"content": "9cbb"');
    proveSame(schcParamsFor(paper, o), files);
  });

  it("a residue that is not a whole byte and a long Uri-Path segment: padding and extended option length agree", () => {
    const params: SchcParams = {
      ...schcParamsFor(paper),
      lsbBits: 3,
      uriPath: ["telemetry", "a-segment-longer-than-13"],
    };
    const files = generateSchcRules(paper).map((f) =>
      f.path.endsWith(".schc.json")
        ? { ...f, content: JSON.stringify(microschcContext(schcUplinkRule(params), "long")) }
        : f,
    );
    const applied = proveSame(params, files);
    // 8 + 3 + 3 bits before the payload: microschc counts the bits, the studio pads the last byte
    expect(applied.map((a) => a.bits)).toEqual(cases.map((c) => 14 + 8 * c.payload.length));
  });

  it("a packet the rule does not match goes whole behind the no-compression rule id and comes back", () => {
    const params = schcParamsFor(paper);
    const packet = coapIpv6Packet(params, 1, Uint8Array.from([7, 8, 9]));
    packet[52] = 0x99; // the Message ID's high byte leaves the rule's range
    const [applied] = applyWithMicroschc(generateSchcRules(paper), [packet]);
    expect(applied!.schc).toBe(`00${hex(packet)}`);
    expect(applied!.restored).toBe(hex(packet));
  });

  it("refuses an address that is not IPv6 with the reason", () => {
    expect(() => parseOptions(schcRulesOptions, { schcServerAddress: "10.0.0.1" })).toThrow(/not an IPv6 address/);
  });
});
