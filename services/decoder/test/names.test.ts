// Resource names sort by arrival: Mobius picks la/ol by name, so the newest record must have the
// alphabetically largest name, also for many ids in one millisecond and for device-supplied ids.
import { describe, expect, it } from "vitest";
import { nextUlid, resourceNameFor, ULID_LENGTH, UlidGenerator, ulidTime } from "../names.ts";

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

  it("device ids sit behind an arrival ULID: names sort by arrival whatever the ids", () => {
    const g = new UlidGenerator(() => 42_000);
    // ids whose own order is the reverse of their arrival
    const device = ["zz-9", "m-5", "a-1", "A", "0"];
    const names = device.map((id) => resourceNameFor(id, g.next()));
    expect(sorted(names)).toEqual(names);
    expect(names.map((n) => n.slice(ULID_LENGTH + 1))).toEqual(device);
    // generated and device-supplied names in one container still sort by arrival
    const mixed = [
      resourceNameFor(undefined, g.next()),
      resourceNameFor("zzz", g.next()),
      resourceNameFor(undefined, g.next()),
    ];
    expect(sorted(mixed)).toEqual(mixed);
  });

  it("the process-wide generator increases on every call", () => {
    const ids = Array.from({ length: 2000 }, () => nextUlid());
    expect(sorted(ids)).toEqual(ids);
  });
});
