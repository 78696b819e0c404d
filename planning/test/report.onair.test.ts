// Bytes on air in the stakeholder report and its CSV, and the transport choice a scenario stores.
import { describe, expect, it } from "vitest";
import { CODECS, type FormatId, parseLayout, presetById } from "#codecs";
import { summarize } from "#codecs/analysis";
import { reportCsv } from "../src/report/csv.ts";
import { buildReport, type MeasuredFormat } from "../src/report/model.ts";
import {
  defaultCostDoc,
  defaultScenario,
  paperTable7Scenario,
  parseCostDoc,
  ScenarioError,
} from "../src/report/scenario.ts";
import { onAirStats, overheadFn } from "../src/transport/platformStack.ts";
import { STACK_IDS } from "../src/transport/stacks.ts";

const layout = parseLayout(presetById("paper")!.layout);
const fixed = (format: FormatId, bytes: number): MeasuredFormat => {
  const sizes = new Uint32Array(20).fill(bytes);
  return { format, label: CODECS[format].info.label, lossy: false, errors: 0, stats: summarize(sizes), sizes };
};

function csvRows(csv: string): string[][] {
  return csv
    .trim()
    .split("\r\n")
    .map((l) => l.split(","));
}

describe("on-air rows in the report CSV", () => {
  const scenario = {
    ...defaultScenario(),
    formats: ["json" as const, "protobuf" as const],
    platforms: ["astrocast", "nbiot-tn"],
    transport: { "nbiot-tn": "mqtt311-q1" as const },
  };
  const model = buildReport({
    projectName: "t",
    layout,
    samples: { count: 20, seed: 1 },
    measured: [fixed("json", 414), fixed("protobuf", 138)],
    scenario,
    generatedAt: "2026-01-01T00:00:00Z",
  });
  const rows = csvRows(reportCsv(model));
  const value = (format: string, platform: string, metric: string) =>
    rows.find((r) => r[0] === "cost" && r[1] === format && r[2] === platform && r[3] === metric)?.[5];

  it("names the stack and the on-air size of every format on every platform", () => {
    for (const c of model.fleet.cells) {
      expect(value(c.format, c.platformId, "transport_stack")).toBe(c.stack);
      expect(Number(value(c.format, c.platformId, "on_air_bytes_mean"))).toBe(c.onAir.mean);
      expect(Number(value(c.format, c.platformId, "on_air_bytes_max"))).toBe(c.onAir.max);
      expect(Number(value(c.format, c.platformId, "transport_bytes_per_message_mean"))).toBe(
        c.onAir.mean - c.sizes.mean,
      );
    }
    // the modem link carries the payload itself; the IP link adds its headers
    expect(value("protobuf", "astrocast", "transport_stack")).toBe("raw");
    expect(value("protobuf", "astrocast", "on_air_bytes_mean")).toBe("138");
    expect(value("protobuf", "nbiot-tn", "transport_stack")).toBe("mqtt311-q1");
    expect(Number(value("protobuf", "nbiot-tn", "on_air_bytes_mean"))).toBeGreaterThan(138);
  });

  it("the fragmentation rows split what is sent into fragment headers and transport headers", () => {
    const frag = rows.filter((r) => r[0] === "fragmentation" && r[1] === "json" && r[2] === "astrocast");
    expect(frag.find((r) => r[3] === "transport_bytes_per_record")?.[5]).toBe("0");
  });

  it("the assumptions say which stack each platform's bytes on air come from", () => {
    const a = model.assumptions.find((x) => x.startsWith("Bytes on air"))!;
    expect(a).toContain("Astrocast (Astronode S): Raw modem payload");
    expect(a).toMatch(/Terrestrial NB-IoT \/ LTE-M: MQTT 3\.1\.1 QoS 1 \/ TCP \/ IPv4 \(\+\d+–\d+ B per message\)/);
  });
});

describe("the transport a scenario stores", () => {
  it("defaults to the platform's stack and keeps older documents without the field readable", () => {
    const doc = defaultCostDoc();
    const { transport: _t, ...old } = doc.scenarios[0]!;
    expect(parseCostDoc({ ...doc, scenarios: [old] }).scenarios[0]!.transport).toEqual({});
    // the paper's Table 7 priced payload bytes only
    expect(paperTable7Scenario().transport).toEqual({ "nbiot-tn": "raw" });
  });

  it("refuses an IP stack on a modem link and an unknown stack, naming where", () => {
    const doc = defaultCostDoc();
    const bad = { ...doc, scenarios: [{ ...doc.scenarios[0]!, transport: { astrocast: "coap-con" } }] };
    expect(() => parseCostDoc(bad)).toThrow(ScenarioError);
    expect(() => parseCostDoc(bad)).toThrow(
      "scenarios.0.transport.astrocast Astrocast (Astronode S) is a modem link: it carries the raw payload, not CoAP CON / UDP / IPv4",
    );
    expect(() =>
      parseCostDoc({ ...doc, scenarios: [{ ...doc.scenarios[0]!, transport: { "nbiot-tn": "smtp" } }] }),
    ).toThrow(/scenarios\.0\.transport\.nbiot-tn/);
  });
});

describe("on-air statistics without a second sort", () => {
  it("equal the statistics of every message's size on air, for every stack, across the headers' length steps", () => {
    // sizes around the steps where a header grows: MQTT remaining length 127/128, MQTT-SN 248/249, Content-Length 99/100
    const sizes = Uint32Array.from([
      0, 1, 7, 60, 98, 99, 100, 101, 120, 126, 127, 128, 129, 200, 247, 248, 249, 250, 999, 1000, 16_400,
    ]);
    for (const stack of STACK_IDS) {
      const overhead = overheadFn(stack, { layout: "paper", format: "cbor" });
      const expected = summarize(Array.from(sizes, (x) => x + overhead(x)));
      expect(onAirStats(summarize(sizes), sizes, overhead), stack).toEqual(expected);
    }
  });
});
