import { describe, expect, it } from "vitest";
import { FORMAT_IDS, type FormatId } from "#codecs";
import { partition } from "../src/worker/pool.ts";

const NINE: FormatId[] = ["json", "cbor", "msgpack", "protobuf", "struct", "struct-zlib", "sbe", "pson", "bitpacked"];

describe("format split over workers", () => {
  it("gives every format to exactly one worker and balances by cost", () => {
    const shares = partition(FORMAT_IDS, 2, {});
    expect(shares.flat().sort()).toEqual([...FORMAT_IDS].sort());
    // the nine formats of issue 24 with their declared costs (a format added later must not change this case):
    // deflate (75) alone outweighs the rest, so it gets a worker of its own
    const nine = partition(NINE, 2, {});
    expect(nine.find((s) => s.includes("struct-zlib"))).toEqual(["struct-zlib"]);
    expect(partition(FORMAT_IDS, 1, {})).toEqual([[...FORMAT_IDS]]);
    const four = partition(NINE, 4, {
      json: 10,
      cbor: 10,
      msgpack: 10,
      protobuf: 10,
      struct: 10,
      "struct-zlib": 10,
      sbe: 10,
      pson: 10,
      bitpacked: 10,
    });
    expect(four.map((s) => s.length).sort()).toEqual([2, 2, 2, 3]);
  });

  it("keeps the table order within a share", () => {
    for (const s of partition(FORMAT_IDS, 3, {}))
      expect(s).toEqual([...s].sort((a, b) => FORMAT_IDS.indexOf(a) - FORMAT_IDS.indexOf(b)));
  });
});
