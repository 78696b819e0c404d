// SBE XML export, proven with the official SBE tool: the tool (validation warnings fatal) generates
// Java codecs from our schema for every test layout. Every wire value of each source record is
// computed by the test (harness.ts, wireValues.ts); the generated decoders must read exactly those
// from our bytes, and the generated encoders, given those values, must write exactly our bytes.
import { describe, expect, it } from "vitest";
import { codecFor, EncodeError, generateSamples } from "#codecs";
import { commonJava, layoutHarness } from "./harness.ts";
import { buildWithSbeTool, runHarness } from "./sbeTool.ts";
import { generateSbeXml } from "../../src/sbeXml.ts";
import { EXPORT_LAYOUTS, layoutNamed } from "../support/layouts.ts";

const SAMPLES = 250;

describe("SBE XML export", () => {
  it("matches the mapping's example for the paper's record", () => {
    const xml = generateSbeXml(layoutNamed("paper"))[0]!.content;
    const decl = (tag: string) =>
      [...xml.matchAll(new RegExp(`<${tag} name="([^"]+)" id="(\\d+)" type="([^"]+)"`, "g"))].map(
        (m) => `${m[1]}:${m[2]}:${m[3]}`,
      );
    expect(decl("field")).toEqual([
      "time:1:TimeType",
      "rssi:2:uint8",
      "ble_m:3:uint8",
      "bat_soc:4:uint8",
      "acc:5:AccType",
      "temperature:6:float",
      "humidity:7:float",
      "pressure:8:float",
      "gnss:9:uint8",
      "latitude:10:float",
      "longitude:11:float",
      "altitude:12:float",
      "speed:13:float",
      "heading:14:float",
      "nsat:15:uint8",
      "hdop:16:float",
    ]);
    expect(decl("data")).toEqual([
      "msisdn:17:varStringEncoding",
      "iso6346:18:varStringEncoding",
      "cgi:19:varStringEncoding",
      "door:20:varStringEncoding",
    ]);
    expect(xml).toContain('<type name="TimeType" primitiveType="char" length="15" characterEncoding="US-ASCII"');
    expect(xml).toContain(
      '<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="container" id="1" version="0"',
    );
    expect(xml).toContain('byteOrder="littleEndian"');
  });

  it("escapes user text so it cannot break the XML", () => {
    const layout = { ...layoutNamed("text-rep"), name: 'a"<b>&\u0001c' };
    const xml = generateSbeXml(layout)[0]!.content;
    expect(xml).toContain('description="a&quot;&lt;b&gt;&amp; c"');
  });

  it("the SBE tool's Java codecs read our bytes as the source records, and encode the source records to our bytes, for every test layout", () => {
    const harnesses = EXPORT_LAYOUTS.map((l, i) => layoutHarness(l.layout, i));
    const build = buildWithSbeTool(
      EXPORT_LAYOUTS.map((l, i) => ({ name: `${i}-${l.name}`, xml: generateSbeXml(l.layout)[0]!.content })),
      commonJava(harnesses),
    );
    const lines: string[] = [];
    const encodeLines: string[] = [];
    const ourHex: string[] = [];
    const expected: string[][] = [];
    const where: string[] = [];
    EXPORT_LAYOUTS.forEach(({ name, layout }, i) => {
      const codec = codecFor(layout, "sbe");
      let n = 0;
      for (const sample of generateSamples(layout, SAMPLES, 5)) {
        let bytes: Uint8Array;
        try {
          bytes = codec.encode(sample);
        } catch (e) {
          // a few fixture samples are outside what a 32-bit field can hold: not this test's subject
          if (e instanceof EncodeError) continue;
          throw e;
        }
        const tokens = harnesses[i]!.expect(sample, bytes.length);
        lines.push(`${i} ${Buffer.from(bytes).toString("hex")}`);
        expected.push(tokens);
        encodeLines.push(`E ${i} ${tokens.map((t) => `x${Buffer.from(t, "utf8").toString("hex")}`).join(" ")}`);
        ourHex.push(Buffer.from(bytes).toString("hex"));
        where.push(`${name} sample ${n++}`);
      }
      expect(n, name).toBeGreaterThan(SAMPLES * 0.8);
    });
    const out = runHarness(build.classes, [...lines, ...encodeLines]);
    expect(out).toHaveLength(lines.length + encodeLines.length);
    let encoded = 0;
    out.forEach((line, k) => {
      if (k < lines.length)
        expect(JSON.parse(line), `decoded by the SBE tool's codec: ${where[k]}`).toEqual(expected[k]);
      else {
        const j = k - lines.length;
        expect(line, `encoded by the SBE tool's codec: ${where[j]}`).toBe(ourHex[j]);
        encoded++;
      }
    });
    console.log(
      `SBE tool codecs: ${lines.length} records decoded and ${encoded} encoded, over ${EXPORT_LAYOUTS.length} layouts`,
    );
  });
});
