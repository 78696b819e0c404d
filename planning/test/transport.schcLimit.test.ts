// compareStacks on an IP link with a datagram limit: the SCHC row counts SCHC fragments of its largest
// message. No built-in IP platform sets a limit, so NB-IoT NTN gets one here (a custom IP platform could).
import { describe, expect, it, vi } from "vitest";
import { generateSamples, measureSizes, parseLayout, presetById } from "#codecs";
import { measuredFormats } from "./support/measured.ts";
import type * as Catalog from "../src/platforms/catalog.ts";
import { evaluateFleet } from "../src/report/fleet.ts";
import { buildReport } from "../src/report/model.ts";
import { defaultScenario } from "../src/report/scenario.ts";
import { compareStacks } from "../src/transport/compare.ts";
import { layoutStackId } from "../src/transport/platformStack.ts";
import { schcFragments } from "../src/transport/schc.ts";

const LIMIT = 120;
vi.mock("../src/platforms/catalog.ts", async (importOriginal) => {
  const real = await importOriginal<typeof Catalog>();
  return {
    ...real,
    platformById: (id: string) => {
      const p = real.platformById(id);
      return p && id === "nbiot-ntn" ? { ...p, uplinkBytes: LIMIT } : p;
    },
  };
});

describe("SCHC fragmentation in the side-by-side comparison", () => {
  it("fragments the SCHC packets over the limit (ACK-on-Error) and leaves the ones that fit whole", () => {
    const paper = parseLayout(presetById("paper")!.layout);
    const measured = measureSizes(paper, generateSamples(paper, 100, 1)).map((m) => ({
      format: m.format,
      label: m.format,
      stats: m.stats,
      sizes: m.sizes,
    }));
    const schc = compareStacks("nbiot-ntn", measured, { layout: layoutStackId(paper.name) }).find(
      (r) => r.stack === "coap-schc",
    )!;
    const json = schc.cells.find((c) => c.format === "json")!;
    expect(json.onAir.max).toBeGreaterThan(LIMIT);
    expect(json.fragments).toEqual(schcFragments(json.onAir.max, LIMIT));
    // 416 B: 2 B headers, 10-byte tiles: 4 regular fragments of up to 110 B, the All-1 with the RCS and the last 6 B
    expect(json.onAir.max).toBe(416);
    expect(json.fragments).toMatchObject({ fragments: 5, bytes: 416 + 5 * 2 + 4 });
    const bitpacked = schc.cells.find((c) => c.format === "bitpacked")!;
    expect(bitpacked.onAir.max).toBeLessThanOrEqual(LIMIT);
    expect(bitpacked.fragments).toBeNull();
  });

  it("the fleet (Cost page, report) fragments the SCHC stack with SCHC, as the comparison counts it", () => {
    const paper = parseLayout(presetById("paper")!.layout);
    const measured = measureSizes(paper, generateSamples(paper, 100, 1)).map((m) => ({
      format: m.format,
      label: m.format,
      stats: m.stats,
      sizes: m.sizes,
    }));
    const fleet = evaluateFleet(
      { ...defaultScenario(), platforms: ["nbiot-ntn"], formats: ["json"], transport: { "nbiot-ntn": "coap-schc" } },
      measured,
      { layout: layoutStackId(paper.name) },
    );
    const plan = fleet.cells[0]!.fragmentation;
    expect(plan.scheme).toBe("SCHC ACK-on-Error");
    // the largest JSON message: the 416-byte SCHC packet in 5 SCHC fragments, not 4 with the studio's header
    expect(plan.fragments.max).toBe(schcFragments(416, LIMIT).fragments);
    expect(plan.fragments.max).toBe(5);
    expect(fleet.cells[0]!.fragmentsPerRecord).toBe(plan.fragments.mean);
  });

  it("the report explains SCHC's reassembly, not the studio header's, for a SCHC-fragmented record", () => {
    const paper = parseLayout(presetById("paper")!.layout);
    const measured = measuredFormats(paper, 100);
    const report = buildReport({
      projectName: "SCHC",
      layout: paper,
      samples: { count: 100, seed: 1 },
      measured,
      scenario: {
        ...defaultScenario(),
        platforms: ["nbiot-ntn"],
        formats: ["json"],
        transport: { "nbiot-ntn": "coap-schc" },
      },
      fitPlatforms: [],
      generatedAt: "2026-01-02T03:04:05.000Z",
    });
    expect(report.fragmentation.map((f) => f.plan.scheme)).toEqual(["SCHC ACK-on-Error"]);
    expect(report.reassemblyRule).toContain("SCHC ACK-on-Error (RFC 8724 §8.4.3");
    expect(report.reassemblyRule).not.toContain("record id (0–255");
  });
});
