import { describe, expect, it } from "vitest";
import { FragmentError, maxRecordBytes, readHeader, Reassembler, splitRecord } from "../src/fragmentation/header.ts";
import { planFragmentation } from "../src/fragmentation/plan.ts";
import { parsePlatform, platformById, type Billing, type Platform } from "../src/platforms/catalog.ts";

const platform = (id: string): Platform => {
  const p = platformById(id);
  if (!p) throw new Error(`no platform ${id}`);
  return p;
};
const bytes = (n: number, from = 0) => Uint8Array.from({ length: n }, (_, i) => (from + i) & 0xff);
const fixedSizes = (n: number, count = 10) => ({ mean: n, p95: n, max: n, sizes: Array<number>(count).fill(n) });
const perMessage: Billing = { kind: "per-message", price: { amount: 0.05, currency: "EUR" } };

describe("fragment header", () => {
  it("splits a 40-byte record for a 30-byte limit into 28 + 12 bytes behind 2-byte headers", () => {
    const parts = splitRecord(bytes(40), 30, 7);
    expect(parts.map((p) => p.length)).toEqual([30, 14]);
    expect([...parts[0]!.subarray(0, 3)]).toEqual([7, 0x01, 0]);
    expect([...parts[1]!.subarray(0, 3)]).toEqual([7, 0x11, 28]);
    expect(readHeader(parts[1]!)).toEqual({ recordId: 7, index: 1, count: 2 });
  });

  it("sends a record that fits as one message with the header, and an empty record as the header alone", () => {
    expect(splitRecord(bytes(28), 30, 255).map((p) => [...p.subarray(0, 2), p.length])).toEqual([[255, 0x00, 30]]);
    expect(splitRecord(new Uint8Array(0), 12, 3).map((p) => [...p])).toEqual([[3, 0x00]]);
  });

  it("counts at most 16 fragments: 160 bytes on Sigfox (10 per message), not 161", () => {
    expect(maxRecordBytes(12)).toBe(160);
    expect(splitRecord(bytes(160), 12, 0)).toHaveLength(16);
    expect(() => splitRecord(bytes(161), 12, 0)).toThrow(FragmentError);
    expect(() => splitRecord(bytes(161), 12, 0)).toThrow("needs 17 fragments of 10 bytes");
  });

  it("rejects bad ids, tiny limits and malformed headers", () => {
    expect(() => splitRecord(bytes(4), 30, 256)).toThrow("record id 256 is not in 0–255");
    expect(() => splitRecord(bytes(4), 2, 0)).toThrow(FragmentError);
    expect(() => readHeader(Uint8Array.of(1))).toThrow("shorter than the fragment header");
    expect(() => readHeader(Uint8Array.of(1, 0x21))).toThrow("fragment index 2 is beyond the last index 1");
  });
});

describe("reassembly", () => {
  it("rebuilds records from fragments in any order and ignores duplicates", () => {
    const r = new Reassembler();
    const rec = bytes(70, 9);
    const [a, b, c] = splitRecord(rec, 30, 42);
    expect(r.push(c!)).toBeNull();
    expect(r.push(a!)).toBeNull();
    expect(r.push(a!)).toBeNull();
    expect(r.waiting).toBe(1);
    expect(r.push(b!)).toEqual(rec);
    expect(r.waiting).toBe(0);
  });

  it("round-trips records of every length up to the maximum on a 12-byte platform", () => {
    const r = new Reassembler();
    for (let n = 0; n <= 160; n++) {
      const rec = bytes(n, n);
      const parts = splitRecord(rec, 12, n & 0xff);
      const out = parts.map((p) => r.push(p));
      expect(
        out.slice(0, -1).every((x) => x === null),
        `length ${n}`,
      ).toBe(true);
      expect(out[out.length - 1], `length ${n}`).toEqual(rec);
    }
    expect(r.dropped).toBe(0);
  });

  it("restarts a buffer when a wrapped id arrives with a different count", () => {
    const r = new Reassembler();
    const old = splitRecord(bytes(50), 30, 5);
    expect(r.push(old[0]!)).toBeNull();
    const fresh = splitRecord(bytes(20, 100), 30, 5);
    expect(r.push(fresh[0]!)).toEqual(bytes(20, 100));
    expect(r.dropped).toBe(1);
  });

  it("drops unfinished records after the timeout and after 128 newer records", () => {
    const timed = new Reassembler(1000);
    expect(timed.push(splitRecord(bytes(50), 30, 1)[0]!, 0)).toBeNull();
    expect(timed.push(splitRecord(bytes(50), 30, 2)[0]!, 1001)).toBeNull();
    expect(timed.dropped).toBe(1);
    expect(timed.waiting).toBe(1);

    const r = new Reassembler();
    const stale = splitRecord(bytes(50), 30, 0);
    r.push(stale[0]!);
    for (let id = 1; id <= 128; id++) r.push(splitRecord(bytes(50), 30, id)[0]!);
    expect(r.dropped).toBe(0);
    r.push(splitRecord(bytes(50), 30, 129)[0]!);
    expect(r.dropped).toBe(1);
    expect(r.push(stale[1]!)).toBeNull();
  });
});

describe("fragmentation planner", () => {
  const fleet = { devices: 1000, messagesPerDay: 4, days: 30 };

  it("62-byte records on Kinéis (30 B): 3 messages of 28 + 28 + 6 bytes, 6 header bytes, 3× the per-message cost", () => {
    const p = planFragmentation({ platform: platform("kineis"), billing: perMessage, sizes: fixedSizes(62), ...fleet });
    expect(p.mode).toBe("fragmented");
    expect(p.headerBytes).toBe(2);
    expect(p.payloadPerMessage).toBe(28);
    expect(p.maxRecordBytes).toBe(448);
    expect(p.fragments).toEqual({ mean: 3, p95: 3, max: 3, shares: [{ fragments: 3, share: 1 }] });
    expect(p.sentBytesPerRecord).toBe(68);
    expect(p.overhead).toEqual({ bytesPerRecord: 6, share: 6 / 68 });
    expect(p.transmissionsPerDay).toEqual({ mean: 12, max: 12 });
    expect(p.cost.fragmented.messages).toBe(120_000);
    expect(p.cost.fragmented.exact!.transmissions).toBe(360_000);
    expect(p.cost.fragmented.exact!.cost).toBeCloseTo(18_000, 9);
    expect(p.cost.whole.exact!.cost).toBeCloseTo(6_000, 9);
    expect(p.cost.extra).toBeCloseTo(12_000, 9);
    expect(p.queue).toBeNull();
  });

  it("Sigfox (12 B, 140 uplinks/day): 7 messages per 62-byte record, over the daily cap at 24 records/day", () => {
    const ok = planFragmentation({ platform: platform("sigfox"), sizes: fixedSizes(62), ...fleet });
    expect(ok.fragments.max).toBe(7);
    expect(ok.sentBytesPerRecord).toBe(76);
    expect(ok.uplinkCap).toEqual({ perDay: 140, ok: true });
    expect(ok.cost.extra).toBeUndefined();
    const over = planFragmentation({
      platform: platform("sigfox"),
      sizes: fixedSizes(62),
      ...fleet,
      messagesPerDay: 24,
    });
    expect(over.transmissionsPerDay.max).toBe(168);
    expect(over.uplinkCap).toEqual({ perDay: 140, ok: false });
    expect(over.notes).toContain("168 messages/day at the largest record exceed Sigfox's 140 uplinks/day");
  });

  it("JSON's 414 bytes on Astrocast: 3 fragments, 2 records per 8-slot queue, 2.5–3.5 slots busy at 4 records/day, €0.183/KB on 6 more bytes", () => {
    const p = planFragmentation({ platform: platform("astrocast"), sizes: fixedSizes(414), ...fleet });
    expect(p.payloadPerMessage).toBe(158);
    expect(p.fragments.max).toBe(3);
    expect(p.sentBytesPerRecord).toBe(420);
    expect(p.queue).toEqual({
      slots: 8,
      recordsPerQueue: 2,
      latencyHours: { min: 5, max: 7 },
      occupancy: { min: 2.5, max: 3.5 },
      overflows: false,
      recordExceedsQueue: false,
    });
    expect(p.cost.extra).toBeCloseTo((120_000 * 6 * 0.183) / 1024, 9);
    expect(p.notes.some((n) => n.includes("5–7 h message latency"))).toBe(true);

    const busy = planFragmentation({
      platform: platform("astrocast"),
      sizes: fixedSizes(414),
      ...fleet,
      messagesPerDay: 24,
    });
    expect(busy.queue!.occupancy).toEqual({ min: 15, max: 21 });
    expect(busy.queue!.overflows).toBe(true);
  });

  it("in fragmented mode records that fit still carry the header: 100 B → 1 message of 102 B, 170 B → 160 + 14 B", () => {
    const p = planFragmentation({
      platform: platform("astrocast"),
      sizes: { mean: 135, p95: 170, max: 170, sizes: [100, 170] },
      devices: 1,
      messagesPerDay: 1,
      days: 1,
    });
    expect(p.fragments.shares).toEqual([
      { fragments: 1, share: 0.5 },
      { fragments: 2, share: 0.5 },
    ]);
    expect(p.fragments.mean).toBe(1.5);
    expect(p.sentBytesPerRecord).toBe((102 + 174) / 2);
    expect(p.overhead.bytesPerRecord).toBe(3);
  });

  it("a record that fits needs no header; platforms without a limit never fragment", () => {
    const fits = planFragmentation({ platform: platform("astrocast"), sizes: fixedSizes(138), ...fleet });
    expect(fits.mode).toBe("single");
    expect(fits.headerBytes).toBe(0);
    expect(fits.sentBytesPerRecord).toBe(138);
    expect(fits.cost.extra).toBe(0);
    expect(fits.queue!.occupancy).toEqual({ min: 5 / 6, max: 7 / 6 });
    const tn = planFragmentation({ platform: platform("nbiot-tn"), sizes: fixedSizes(5000), ...fleet });
    expect(tn.mode).toBe("no-limit");
    expect(tn.limit).toBeNull();
  });

  it("flags records beyond 16 fragments", () => {
    const custom = parsePlatform({ ...platform("kineis"), id: "tiny", uplinkBytes: 12 });
    const p = planFragmentation({ platform: custom, sizes: fixedSizes(200), ...fleet });
    expect(p.mode).toBe("too-large");
    expect(p.notes[0]).toBe(
      "records up to 200 B need more than the header's 16 fragments (160 B at most on Kinéis (max))",
    );
  });
});
