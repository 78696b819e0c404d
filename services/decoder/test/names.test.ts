// Resource names sort by arrival: Mobius picks la/ol by name, so the newest record must have the
// alphabetically largest name, also for many ids in one millisecond. They fit every CSE (≤ 45
// characters, Mobius' lookup.rn), old long names are replaced the same way on every resend, and
// the names a repair takes sort right after the name they replace.
import { describe, expect, it } from "vitest";
import {
  fittingName,
  instanceLabels,
  MAX_REPAIRS,
  MAX_RESOURCE_NAME,
  messageIdOf,
  nextUlid,
  repairName,
  ULID_LENGTH,
  UlidGenerator,
  ulidTime,
} from "../src/names.ts";

/** JavaScript's default sort compares UTF-16 code units: byte order for these ASCII names, as SQL's BINARY collation */
const sorted = (xs: string[]) => [...xs].sort();

describe("time-ordered resource names", () => {
  it("ULIDs from one generator sort in the order they were made, 10 000 within one millisecond", () => {
    const g = new UlidGenerator(() => 1_700_000_000_000);
    const ids = Array.from({ length: 10_000 }, () => g.next());
    expect(new Set(ids).size).toBe(ids.length);
    expect(sorted(ids)).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(ulidTime(ids[0]!)).toBe(1_700_000_000_000);
  });

  it("keeps order across milliseconds, a clock stepping back, and the largest random value of a millisecond", () => {
    let now = 1000;
    let random = (1n << 80n) - 3n;
    const g = new UlidGenerator(
      () => now,
      () => random,
    );
    const ids: string[] = [];
    ids.push(g.next(), g.next(), g.next(), g.next()); // the 4th overflows into the next ms
    now = 999; // the clock stepped back
    ids.push(g.next());
    now = 5000;
    random = 0n;
    ids.push(g.next(), g.next());
    expect(sorted(ids)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ulidTime(ids[3]!)).toBe(1001);
    expect(ulidTime(ids[5]!)).toBe(5000);
  });

  it("matches the ULID spec's encoding of a known time (48-bit ms, Crockford base32)", () => {
    // the spec's example: 1469918176385 ms encodes as 01ARYZ6S41
    const g = new UlidGenerator(
      () => 1_469_918_176_385,
      () => 0n,
    );
    expect(g.next()).toBe("01ARYZ6S41" + "0".repeat(16));
  });

  it("a device's own id travels in a label, not in the name: names stay ULIDs whatever the id", () => {
    const g = new UlidGenerator(() => 42_000);
    // Astrocast's 36-character message GUID and the longest id the decoder takes (128)
    const ids = ["2f6f3a1e-9c4b-4d0e-8a57-0b3c2d1e4f5a", "x".repeat(128), "zz-9", "a-1"];
    const names = ids.map(() => g.next());
    expect([...names].sort()).toEqual(names);
    for (const [i, id] of ids.entries()) {
      expect(names[i]!.length).toBe(ULID_LENGTH);
      expect(instanceLabels(id, names[i]!)).toEqual([`msgid:${id}`]);
      expect(messageIdOf(names[i]!, instanceLabels(id, names[i]!))).toBe(id);
      // Mobius keeps lbl in lookup.lbl varchar(200) as JSON indented by 4: one label of ≤ 190 fits
      expect(JSON.stringify(instanceLabels(id, names[i]!), null, 4).length).toBeLessThanOrEqual(200);
    }
    // a generated id is the name: no label
    expect(instanceLabels(names[0]!, names[0]!)).toBeUndefined();
    expect(messageIdOf(names[0]!)).toBe(names[0]);
    // names decoders made before the labels still give their id back
    expect(messageIdOf(`${names[0]}-dev42.1007`)).toBe("dev42.1007");
  });

  it("old names too long for Mobius become ≤ 45 characters, the same on every resend; fitting ones stay", () => {
    const old = {
      seq: 7,
      messageId: "ltc777b472.0.0.1795786530481",
      rn: "01M8EKFQPJZN52Z0PJSYWYZPJK-ltc777b472.0.0.1795786530481",
      receivedAt: 1_795_786_530_481,
    };
    expect(old.rn.length).toBe(55);
    expect(fittingName(old)).toBe("01M8EKFQPJZN52Z0PJSYWYZPJK");
    expect(fittingName(old)).toBe(fittingName({ ...old }));
    // buffers from before the rn column: the device's id was the name; a long one gets a ULID of its arrival
    const bare = { seq: 9, messageId: "d".repeat(60), rn: null, receivedAt: 1_700_000_000_123 };
    const derived = fittingName(bare);
    expect(derived).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(ulidTime(derived)).toBe(1_700_000_000_123);
    expect(fittingName({ ...bare })).toBe(derived);
    // later records of the same millisecond sort after it (seq orders within the millisecond)
    expect(fittingName({ ...bare, seq: 10, messageId: "e".repeat(60) }) > derived).toBe(true);
    for (const fits of ["01M8EKFQPJZN52Z0PJSYWYZPJK-short", "x".repeat(45)])
      expect(fittingName({ seq: 1, messageId: "m", rn: fits, receivedAt: 0 })).toBe(fits);
  });

  it("repairs take the next name: ≤ 45 characters, right after the original, before the next record", () => {
    const g = new UlidGenerator(() => 42_000);
    const [first, next] = [g.next(), g.next()];
    const r = { seq: 1, messageId: first, rn: null, receivedAt: 42_000 };
    const chain = [first];
    for (let n = repairName(first, r); n !== undefined; n = repairName(n, r)) chain.push(n);
    expect(chain.slice(1, 3)).toEqual([`${first}.r1`, `${first}.r2`]);
    expect(chain).toHaveLength(MAX_REPAIRS + 1);
    expect([...chain, next].sort()).toEqual([...chain, next]);
    for (const n of chain) expect(n.length).toBeLessThanOrEqual(MAX_RESOURCE_NAME);
    // a 45-character old name repairs from its ULID, still sorting after it
    const long = `${first}-${"x".repeat(18)}`;
    expect(long.length).toBe(45);
    const repaired = repairName(long, r)!;
    expect(repaired).toBe(`${first}.r1`);
    expect([next, repaired, long].sort()).toEqual([long, repaired, next]);
  });

  it("the process-wide generator increases on every call", () => {
    const ids = Array.from({ length: 2000 }, () => nextUlid());
    expect(sorted(ids)).toEqual(ids);
  });
});
