import { describe, expect, it } from "vitest";
import { generateSamples, measureSizes, parseLayout, presetById } from "#codecs";
import { coapIpv6Packet, schcCompress, schcUplinkRule, schcResidueBits } from "#codecs/plans";
import { evaluateFleet } from "../src/report/fleet.ts";
import { defaultScenario } from "../src/report/scenario.ts";
import { compareStacks } from "../src/transport/compare.ts";
import { layoutStackId } from "../src/transport/platformStack.ts";
import { schcFragments, schcHeaderBytes, studioSchcParams } from "../src/transport/schc.ts";
import { allStackOverheads, stackOverhead } from "../src/transport/stacks.ts";

const ctx = { layout: "paper", format: "cbor" };

describe("SCHC of the studio's CoAP CON/UDP/IPv6 uplink (RFC 8724 / 8824)", () => {
  it("leaves the rule id and 4 + 4 bits of Message ID and Token: 2 B instead of 71 B of headers", () => {
    const params = studioSchcParams("paper");
    expect(schcResidueBits(schcUplinkRule(params))).toBe(8);
    expect(schcHeaderBytes(params, 40)).toBe(2);
    const schc = stackOverhead("coap-schc", 40, ctx);
    const plain = stackOverhead("coap-ipv6", 40, ctx);
    expect(schc.overhead).toBe(2);
    expect(plain.overhead).toBe(40 + 8 + 4 + 2 + 10 + 6 + 1);
    expect(allStackOverheads(40, ctx).map((s) => s.stack)).toContain("coap-schc-udp-ipv6");
  });

  it("pads a residue that is not a whole byte to the next byte (RFC 8724 §9)", () => {
    const params = studioSchcParams("paper", { lsbBits: 3 });
    expect(schcResidueBits(schcUplinkRule(params))).toBe(6);
    // 8 + 6 bits of header + the payload's bytes: 14 bits round up to 2 B, whatever the payload
    expect(schcHeaderBytes(params, 10)).toBe(2);
    expect(schcCompress(params, 5, new Uint8Array(10)).length).toBe(12);
  });

  it("compresses the packet it describes to the rule id, the residues and the payload", () => {
    const params = studioSchcParams("paper");
    const payload = Uint8Array.from([1, 2, 3]);
    const packet = coapIpv6Packet(params, 0x7, payload);
    // 40 B IPv6 + 8 B UDP + CoAP: 4 + 2 token + Uri-Path 1+9 and 1+5 + marker
    expect(packet.length).toBe(40 + 8 + 4 + 2 + 10 + 6 + 1 + 3);
    expect([...schcCompress(params, 0x7, payload)]).toEqual([5, 0x77, 1, 2, 3]);
  });

  it("refuses an address that is not IPv6 and a rule id that does not fit", () => {
    expect(() => schcUplinkRule(studioSchcParams("paper", { serverAddress: "10.0.0.1" }))).toThrow(/not an IPv6/);
    expect(() => schcUplinkRule(studioSchcParams("paper", { ruleId: { value: 300, bits: 8 } }))).toThrow(/300/);
  });
});

describe("SCHC fragmentation (RFC 8724 §8) when the compressed packet exceeds the MTU", () => {
  it("sends one packet when it fits", () => {
    expect(schcFragments(50, 50)).toEqual({
      mode: "ack-on-error",
      fragments: 1,
      sizes: [50],
      bytes: 50,
      added: 0,
      ackBytes: 0,
    });
  });

  it("ACK-on-Error: 2 B headers, whole 10-byte tiles, the RCS and the last tile in the All-1", () => {
    // 125 B over a 50 B MTU: tiles of 10, the last tile 5 B; regular fragments carry 40 B (4 tiles)
    const f = schcFragments(125, 50);
    expect(f.fragments).toBe(4);
    expect(f.bytes).toBe(125 + 4 * 2 + 4);
    // three regular fragments of 4 tiles, the All-1: header, RCS, the 5-byte last tile
    expect(f.sizes).toEqual([42, 42, 42, 2 + 4 + 5]);
    // the receiver's ACK after the All-1: rule id 8 + W 2 + C 1 bits, padded to 2 B
    expect(f.ackBytes).toBe(2);
  });

  it("No-ACK: as many bytes as fit behind a 2 B header", () => {
    const f = schcFragments(125, 50, "no-ack");
    // All-1: 2 + 4 RCS + 44; the 81 bytes before it in regular fragments of 48
    expect(f.fragments).toBe(3);
    expect(f.bytes).toBe(125 + 3 * 2 + 4);
    expect(f.sizes).toEqual([50, 35, 50]);
    expect(f.ackBytes).toBe(0);
  });

  it("refuses an MTU too small for a fragment header and its RCS", () => {
    expect(() => schcFragments(40, 6)).toThrow(/cannot carry/);
  });
});

describe("NIDD, SCHC and uncompressed CoAP side by side on NB-IoT (the paper preset)", () => {
  const paper = parseLayout(presetById("paper")!.layout);
  const measured = measureSizes(paper, generateSamples(paper, 200, 1)).map((m) => ({
    format: m.format,
    label: m.format,
    stats: m.stats,
    sizes: m.sizes,
  }));
  const layout = layoutStackId(paper.name);

  it("orders them NIDD < SCHC < CoAP/IPv4 < CoAP/IPv6 in bytes and in money, as the Cost page prices each stack", () => {
    const rows = compareStacks("nbiot-ntn", measured, { layout });
    expect(rows.map((r) => r.stack)).toEqual(["raw", "coap-schc", "coap-con", "coap-ipv6"]);
    expect(rows[0]!.name).toContain("Non-IP");
    const protobuf = (i: number) => rows[i]!.cells.find((c) => c.format === "protobuf")!;
    const p50 = measured.find((m) => m.format === "protobuf")!.stats.p50;
    expect(protobuf(0).onAir.p50).toBe(p50);
    expect(protobuf(1).onAir.p50).toBe(p50 + 2);
    expect(protobuf(2).onAir.p50).toBeGreaterThan(p50 + 2 + 28);
    for (let i = 1; i < 4; i++) expect(protobuf(i).monthly!).toBeGreaterThan(protobuf(i - 1).monthly!);
    // the same number the fleet grid gives with that stack chosen (the Cost page's model)
    const fleet = evaluateFleet(
      { ...defaultScenario(), platforms: ["nbiot-ntn"], transport: { "nbiot-ntn": "coap-schc" } },
      measured,
      { layout },
    );
    const cell = fleet.cells.find((c) => c.format === "protobuf")!;
    expect(protobuf(1).monthly).toBe(cell.monthly.exact);
  });

  it("is empty on a modem link", () => {
    expect(compareStacks("astrocast", measured, { layout })).toEqual([]);
  });
});
