// Whole runs against the real local stack (embedded CSE + decoder processes): counts agree with what
// the decoder stored, the end-to-end probe sees the contentInstances, and the matrix fills a
// paper-shaped table with the paper's cells beside ours.
import { describe, expect, it } from "vitest";
import { loadTestResultSchema, type Progress } from "#contracts/loadtest/result.ts";
import { runSettingsSchema } from "#contracts/loadtest/spec.ts";
import { markdownTable, resultsCsv, CSV_COLUMNS } from "#contracts/loadtest/table.ts";
import { fomRange } from "#planning/paper";
import { presetLayout } from "../src/layoutSource.ts";
import { runMatrix } from "../src/matrix.ts";
import { paperCellFor, runLoadTest } from "../src/run.ts";

const paper = presetLayout("paper");
const quick = {
  wait: { kind: "uniform" as const, min: 0.1, max: 0.3 },
  spawnRate: 200,
  warmupSeconds: 0.5,
  poolSize: 500,
};

describe("local stack runs", () => {
  it("a run stores every acknowledged message, measures ingest → cin delay and its FoM", async () => {
    const settings = runSettingsSchema.parse({
      ...quick,
      format: "protobuf",
      devices: 30,
      durationSeconds: 3,
      target: { kind: "local", replicas: 2 },
    });
    const progress: Progress[] = [];
    const r = await runLoadTest({ settings, layout: paper, onProgress: (p) => progress.push(p), tickMs: 500 });
    expect(loadTestResultSchema.parse(r)).toEqual(r);
    expect(r.status).toBe("completed");
    expect(r.requests.measuredFailed).toBe(0);
    expect(r.requests.abandoned).toBe(0);
    expect(r.requests.succeeded).toBe(r.requests.sent);
    // the decoder stored exactly the messages it acknowledged during the run, and forwarded all of them
    expect(r.server).not.toBeNull();
    expect(r.server!.records).toBe(r.requests.succeeded);
    expect(r.server!.forwarded).toBe(r.requests.succeeded);
    expect(r.server!.rejected).toBe(0);
    // every simulated device sent its own identity: one decoder device (one CSE container) each
    expect(r.server!.uniqueDevices).toBe(30);
    // the CSE notified the probe of the devices' cins: every device's container was watched (the probe subscribes
    // to each as the CSE announces it, so the cins a container got before that subscription landed are not
    // sampled; how many that is depends on how busy the machine is, so no share is asserted)
    expect(r.endToEnd).not.toBeNull();
    expect(r.endToEnd!.count).toBeGreaterThan(0);
    const watched = r.notes.map((n) => /sampled from (\d+) device containers/.exec(n)?.[1]).find(Boolean);
    expect(Number(watched)).toBeGreaterThanOrEqual(30);
    // the probe's window is by send time and `measured` by completion, so a few requests at the window's
    // edges can count on one side only; never more cins than messages the run sent
    expect(r.endToEnd!.count).toBeLessThanOrEqual(r.requests.succeeded);
    expect(r.endToEnd!.min).toBeGreaterThan(0);
    // the result prints RPS to 0.01 and success to 1e-5 while FoM comes from the unrounded values, so
    // it lies within the range those printed inputs allow (plus FoM's own rounding to 0.1)
    const [fomLo, fomHi] = fomRange(
      { rps: r.rps, successRate: r.successRate, p95Seconds: r.latency.p95 / 1000 },
      { rps: 0.005, successRate: 0.000005, p95Seconds: 0 },
    );
    expect(r.fom).toBeGreaterThanOrEqual(fomLo - 0.05);
    expect(r.fom).toBeLessThanOrEqual(fomHi + 0.05);
    expect(r.payloadBytes.mean).toBeGreaterThan(130);
    expect(r.paper).toBeNull();
    // progress went through the phases in order and ended at the end-to-end wait
    const phases = progress.map((p) => p.phase).filter((p, i, a) => p !== a[i - 1]);
    expect(phases[0]).toBe("starting");
    expect(phases).toContain("measure");
    expect(phases.at(-1)).toBe("e2e");
  }, 120_000);

  it("the matrix runs format × devices on one stack and prints the paper-shaped table", async () => {
    const results = await runMatrix({
      layout: paper,
      formats: ["protobuf", "struct-zlib"],
      devices: [5, 10],
      replicas: [1],
      base: { ...quick, durationSeconds: 1, endToEnd: false },
    });
    expect(results.map((r) => `${r.settings.format}/${r.settings.devices}`)).toEqual([
      "protobuf/5",
      "protobuf/10",
      "struct-zlib/5",
      "struct-zlib/10",
    ]);
    for (const r of results) {
      expect(r.status).toBe("completed");
      expect(r.requests.measuredFailed).toBe(0);
      expect(r.server!.records).toBe(r.requests.succeeded);
    }
    const md = markdownTable(results);
    expect(md.split("\n")[0]).toMatch(/^\| format \| devices \| instances \| RPS \(paper\)/);
    expect(md).toMatch(/\| Struct\+Zlib \| 10 \| 1 \|/);
    const csv = resultsCsv(results).trim().split("\n");
    expect(csv[0]).toBe(CSV_COLUMNS.join(","));
    expect(csv).toHaveLength(5);
  }, 180_000);

  it("puts the paper's published cell beside a run of the paper's workload", () => {
    const s = runSettingsSchema.parse({
      format: "protobuf",
      devices: 2000,
      durationSeconds: 10,
      target: { kind: "local", replicas: 4 },
    });
    expect(paperCellFor(s)).toEqual({
      source: "Table 5",
      rps: 712,
      avgMs: 706,
      p95Ms: 1096,
      failuresPercent: 0,
      fom: 650,
    });
    expect(paperCellFor({ ...s, target: { kind: "local", replicas: 1 } })).toMatchObject({
      source: "Table 3",
      rps: 492,
      p95Ms: 9867,
      failuresPercent: 3,
      fom: 49,
    });
    // another workload is not the paper's cell
    expect(paperCellFor({ ...s, wait: { kind: "uniform", min: 0.1, max: 0.3 } })).toBeNull();
    expect(paperCellFor({ ...s, target: { kind: "url", url: "http://127.0.0.1:1/ingest" } })).toBeNull();
  });
});
