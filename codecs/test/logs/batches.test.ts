// A log's readings become the messages a batch layout sends; a once-field that changes inside a message
// is named, not silently replaced by the message's first value.
import { describe, expect, test } from "vitest";
import { batchCodecFor } from "../../src/batch/codec.ts";
import { parseLayout } from "../../src/layout/validate.ts";
import { batchesFromLog } from "../../src/logs/batches.ts";
import { importLog } from "../../src/logs/importLog.ts";
import { toFloat32 as f32 } from "../../src/text/numbers.ts";
import { buoyBatch } from "../fixtures/batchExample.ts";

const buoy = parseLayout(buoyBatch);
const log = [
  "dev,t,temp,ok",
  "7,1748779200,12.3,1",
  "7,1748779260,12.5,1",
  "8,1748779321,12.4,0",
  "8,1748779380,12.6,1",
  "8,1748779440,12.7,1",
].join("\n");

describe("batchesFromLog", () => {
  test("cuts the log into messages of N readings in order; the last one holds the rest", () => {
    const { records, lines, problems } = importLog(buoy, log);
    expect(problems).toEqual([]);
    const cut = batchesFromLog(buoy, records, lines, 2);
    expect(cut.problems).toEqual([]);
    expect(cut.batches).toEqual([
      {
        once: { dev: 7 },
        readings: [
          { t: 1748779200, temp: f32(12.3), ok: true },
          { t: 1748779260, temp: f32(12.5), ok: true },
        ],
      },
      {
        once: { dev: 8 },
        readings: [
          { t: 1748779321, temp: f32(12.4), ok: false },
          { t: 1748779380, temp: f32(12.6), ok: true },
        ],
      },
      { once: { dev: 8 }, readings: [{ t: 1748779440, temp: f32(12.7), ok: true }] },
    ]);
    // and they encode as the layout's messages
    const codec = batchCodecFor(buoy, "bitpacked", "delta", 2);
    expect(cut.batches.map((b) => codec.decode(codec.encode(b)))).toEqual(cut.batches);
  });

  test("a once-field that changes inside a message is a problem naming its line", () => {
    const { records, lines } = importLog(buoy, log);
    expect(batchesFromLog(buoy, records, lines, 4).problems).toEqual([
      {
        line: 4,
        field: "dev",
        message: "is sent once per message: this reading's value differs from line 2's, which the message carries",
      },
      {
        line: 5,
        field: "dev",
        message: "is sent once per message: this reading's value differs from line 2's, which the message carries",
      },
    ]);
  });
});
