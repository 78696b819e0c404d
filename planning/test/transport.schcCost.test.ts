// The cost model with a SCHC stack on an IP link with a datagram limit: a packet over the limit is split
// by SCHC fragmentation (RFC 8724 §8), not by the studio's 2-byte reassembly header, and each fragment is
// billed as sent. The platform is a custom one: no built-in IP platform sets a limit.
import { describe, expect, it } from "vitest";
import { estimateCost } from "../src/cost/cost.ts";
import { fragmentationMode, planFragmentation, REASSEMBLY_RULE } from "../src/fragmentation/plan.ts";
import { parsePlatform } from "../src/platforms/catalog.ts";
import { overheadFn } from "../src/transport/platformStack.ts";
import { schcFragments } from "../src/transport/schc.ts";

const LIMIT = 120;
const platform = parsePlatform({
  id: "ip-120",
  name: "IP link, 120-byte datagrams",
  network: "satellite",
  link: "ip",
  uplinkBytes: LIMIT,
  billing: { kind: "per-message", price: { amount: 0.01, currency: "EUR", minBilledBytes: 0 } },
  source: "test",
});
const ctx = { layout: "paper", format: "json" };
// 414 B of payload: a 416-byte SCHC packet (8-bit rule id + 8 residue bits)
const PAYLOAD = 414;
const sizes = { mean: (PAYLOAD + 60) / 2, p95: PAYLOAD, max: PAYLOAD, sizes: [PAYLOAD, 60] };

function cost(stack: "coap-schc" | "coap-schc-noack") {
  const overhead = overheadFn(stack, ctx);
  return estimateCost({
    platform,
    devices: 1000,
    messagesPerDay: 4,
    days: 30,
    sizes,
    transportOverhead: overhead,
    ...fragmentationMode(platform, sizes, overhead),
  });
}

describe("SCHC fragmentation in the cost model", () => {
  it("ACK-on-Error: 5 fragments of the 416-byte packet, each billed (the studio header sent 4)", () => {
    const packet = PAYLOAD + overheadFn("coap-schc", ctx)(PAYLOAD);
    expect(packet).toBe(416);
    const frag = schcFragments(packet, LIMIT);
    expect(frag.sizes).toEqual([112, 112, 112, 82, 2 + 4 + 6]);
    const r = cost("coap-schc");
    expect(r.max.fragmentsPerMessage).toBe(5);
    expect(r.max.sentBytes).toBe(120_000 * frag.bytes);
    expect(r.max.units).toBe(120_000 * 5);
    expect(r.max.cost).toBeCloseTo(120_000 * 5 * 0.01, 6);
    // the exact mean: the 60-byte message fits and travels whole under its compression rule (62 B, no header)
    expect(r.exact!.sentBytes).toBe(120_000 * ((frag.bytes + 62) / 2));
    expect(r.warnings.join(" ")).toMatch(/SCHC ACK-on-Error fragments/);
  });

  it("No-ACK: as many bytes as fit behind a 2-byte header, 4 fragments", () => {
    const r = cost("coap-schc-noack");
    expect(schcFragments(416, LIMIT, "no-ack").sizes).toEqual([120, 120, 68, 120]);
    expect(r.max.fragmentsPerMessage).toBe(4);
    expect(r.max.sentBytes).toBe(120_000 * (416 + 4 * 2 + 4));
  });

  it("the fragmentation plan names SCHC, counts its headers and RCS, and the ACKs on the downlink", () => {
    const plan = planFragmentation({
      platform,
      sizes,
      devices: 1000,
      messagesPerDay: 4,
      transportOverhead: overheadFn("coap-schc", ctx),
    });
    expect(plan.mode).toBe("fragmented");
    expect(plan.scheme).toBe("SCHC ACK-on-Error");
    expect(plan.reassembly).not.toBe(REASSEMBLY_RULE);
    expect(plan.headerBytes).toBe(2);
    expect(plan.payloadPerMessage).toBe(110);
    expect(plan.fragments.max).toBe(5);
    expect(plan.fragments.shares).toEqual([
      { fragments: 1, share: 0.5 },
      { fragments: 5, share: 0.5 },
    ]);
    // per record on average: half the records add 5 headers + the RCS (14 B); SCHC's own 2 B go to the transport
    expect(plan.overhead.bytesPerRecord).toBe(7);
    expect(plan.transportBytesPerRecord).toBe(2);
    expect(plan.sentBytesPerRecord).toBe((430 + 62) / 2);
    expect(plan.ackBytesPerRecord).toBe(1);
    expect(plan.maxRecordBytes).toBe(2520 - 2);
    expect(plan.notes.join(" ")).toMatch(/2-byte SCHC ACK on the downlink/);
  });

  it("a packet over ACK-on-Error's 4 windows of 63 tiles is too large; No-ACK has no such bound", () => {
    const big = { mean: 3000, p95: 3000, max: 3000 };
    const input = { platform, sizes: big, devices: 1, messagesPerDay: 1 };
    expect(planFragmentation({ ...input, transportOverhead: overheadFn("coap-schc", ctx) }).mode).toBe("too-large");
    const noAck = planFragmentation({ ...input, transportOverhead: overheadFn("coap-schc-noack", ctx) });
    expect([noAck.mode, noAck.maxRecordBytes]).toEqual(["fragmented", null]);
  });

  it("the other IP stacks keep the studio's 2-byte reassembly header", () => {
    const plan = planFragmentation({
      platform,
      sizes,
      devices: 1000,
      messagesPerDay: 4,
      transportOverhead: overheadFn("coap-ipv6", ctx),
    });
    expect([plan.scheme, plan.reassembly, plan.ackBytesPerRecord]).toEqual([
      "studio reassembly header",
      REASSEMBLY_RULE,
      0,
    ]);
  });
});
