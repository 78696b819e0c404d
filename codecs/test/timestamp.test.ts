// Text timestamps against an independent oracle (Date, for the years it handles correctly).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileTextTime, formatTimestamp, parseTimestamp } from "../src/text/timestamp.ts";

const p2 = (n: number) => String(n).padStart(2, "0");

/** What a careful hand-written formatter using Date prints, for years 1000–9999. */
function oracle(epoch: number, format: string): string {
  const res = format.includes("ss.sss") ? 0.001 : format.includes("ss.ss") ? 0.01 : format.includes("ss.s") ? 0.1 : 1;
  const ticks = Math.round(epoch / res);
  const whole = Math.floor(ticks * res + 1e-9);
  const d = new Date(whole * 1000);
  const fracDigits = Math.round(-Math.log10(res));
  const frac = fracDigits
    ? String(((ticks % 10 ** fracDigits) + 10 ** fracDigits) % 10 ** fracDigits).padStart(fracDigits, "0")
    : "";
  return format
    .replace(/ss\.s+/, `${p2(d.getUTCSeconds())}.${frac}`)
    .replace("YYYY", String(d.getUTCFullYear()))
    .replace("YY", p2(d.getUTCFullYear() % 100))
    .replace("MM", p2(d.getUTCMonth() + 1))
    .replace("DD", p2(d.getUTCDate()))
    .replace("hh", p2(d.getUTCHours()))
    .replace("mm", p2(d.getUTCMinutes()))
    .replace(/ss(?!\.)/, p2(d.getUTCSeconds()));
}

const FORMATS = [
  "DDMMYY hhmmss.s",
  "YYYY-MM-DD hh:mm:ss",
  "YYYY-MM-DDThh:mm:ss.sssZ",
  "hh:mm DD/MM/YY",
  "YYYYMMDD°hhmmss.ss",
];

describe("text timestamps", () => {
  it("formats the paper's example and parses it back", () => {
    expect(formatTimestamp(1748778312.3, "DDMMYY hhmmss.s")).toBe("010625 114512.3");
    expect(parseTimestamp("010625 114512.3", "DDMMYY hhmmss.s")).toBe(1748778312.3);
  });

  it.each(FORMATS)("%s agrees with Date as strings and as bytes, and parses back", (format) => {
    const tt = compileTextTime(format);
    const buf = new Uint8Array(tt.length + 2);
    fc.assert(
      fc.property(fc.double({ min: -30610224000, max: 253402300000, noNaN: true }), (epoch) => {
        const text = tt.format(epoch)!;
        expect(text).toBe(oracle(epoch, format));
        expect(tt.write(buf, 1, epoch)).toBe(true);
        expect(new TextDecoder().decode(buf.subarray(1, 1 + tt.length))).toBe(text);
        if (format.includes("YYYY") && format.includes("ss")) {
          const back = tt.parse(text)!;
          expect(Math.abs(back - epoch)).toBeLessThanOrEqual(
            tt.resolution / 2 + 1e-6 * Math.abs(epoch) * Number.EPSILON * 1e6,
          );
          expect(tt.read(buf, 1)).toBe(back);
        }
      }),
      { seed: 11, numRuns: 3000 },
    );
  });

  it("rejects impossible dates, wrong lengths and non-digits", () => {
    const tt = compileTextTime("YYYY-MM-DD hh:mm:ss");
    for (const bad of [
      "2024-02-30 00:00:00",
      "2023-02-29 00:00:00",
      "2100-02-29 00:00:00",
      "2024-13-01 00:00:00",
      "2024-00-10 00:00:00",
      "2024-01-01 24:00:00",
      "2024-01-01 00:60:00",
      "2024-01-01 00:00:60",
      "2024-01-01 00:00:0x",
      "2024-01-01 00:00:00 ",
      "2024/01/01 00:00:00",
      "",
    ])
      expect(tt.parse(bad), bad).toBeUndefined();
    expect(tt.parse("2000-02-29 23:59:59")).toBe(951868799);
    expect(tt.parse("2024-02-29 00:00:00")).toBe(1709164800);
    // years below 100 are real years, not 1900 + n as Date.UTC would read them
    expect(tt.parse("0050-01-01 00:00:00")).toBe(-60589296000);
  });

  it("refuses instants outside the years 0000–9999", () => {
    const tt = compileTextTime("YYYY-MM-DD");
    expect(tt.format(253402300800)).toBeUndefined();
    expect(tt.write(new Uint8Array(10), 0, -62167219201)).toBe(false);
    expect(() => formatTimestamp(1e13, "YYYY")).toThrow(RangeError);
  });
});
