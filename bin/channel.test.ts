// `satpayload channel`: JSON schemas, the seed 003 table, the fleet mode and usage errors.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { repoRoot } from "#codecs-test/helpers/python.ts";

const TSX = path.join(repoRoot, "node_modules/.bin/tsx");

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  // owned: stopped with tsx's node child if its test ends first
  const r = await runOwned(TSX, ["bin/satpayload.ts", ...args], { cwd: repoRoot });
  return { code: typeof r.code === "number" ? r.code : 1, out: r.stdout, err: r.stderr };
}

describe("satpayload channel", () => {
  it("overhead --json lists every stack with its layers; --csv has one row per stack and size", async () => {
    const [json, csv] = await Promise.all([
      cli(["channel", "overhead", "--payload", "138", "--json"]),
      cli(["channel", "overhead", "--payload", "20,138", "--csv"]),
    ]);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.out);
    expect(doc.schema).toBe("satpayload.overhead/1");
    const coap = doc.stacks.find((s: { stack: string }) => s.stack === "coap-udp-ipv4");
    expect(coap.total).toBe(coap.payload + coap.layers.reduce((a: number, l: { bytes: number }) => a + l.bytes, 0));
    expect(csv.out.trim().split("\n")).toHaveLength(1 + 2 * doc.stacks.length);
  });

  it("simulate --scenario seed003 --json gives Table II/III rows beside the paper's", async () => {
    const r = await cli([
      "channel",
      "simulate",
      "--scenario",
      "seed003",
      "--nstart",
      "1,10",
      "--horizon",
      "120",
      "--json",
    ]);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.schema).toBe("satpayload.channel/1");
    expect(doc.mode).toBe("seed003");
    expect(doc.rows.map((x: { label: string }) => x.label)).toEqual([
      "CoAP/UDP (NSTART = 1)",
      "CoAP/UDP (NSTART = 10)",
      "MQTT/TCP",
    ]);
    expect(doc.rows[0].paperGoodputKBps).toBe(32.14);
    expect(doc.rows[1].goodputKBps).toBeGreaterThan(doc.rows[0].goodputKBps);
  });

  it("simulate --scenario seed003 names the rows outside ±10 % and says why", async () => {
    const r = await cli([
      "channel",
      "simulate",
      "--scenario",
      "seed003",
      "--nstart",
      "1",
      "--no-mqtt",
      "--horizon",
      "60",
    ]);
    expect(r.code, r.err).toBe(0);
    // 60 s is far from the paper's 1000: NSTART 1 is well off, and the note must say so
    expect(r.out).toContain("Outside ±10 % of the paper: CoAP/UDP (NSTART = 1).");
    expect(r.out).toContain("allow 112.5–121.8 B of data per packet");
    expect(r.out).toContain("this model's packets carry 128 B");
    expect(r.out).toContain("Where ±10 % cannot be reached");
  });

  it("simulate a fleet: one point per load per stack, the fleet's own first", async () => {
    const r = await cli([
      "channel",
      "simulate",
      "--preset",
      "paper",
      "--format",
      "protobuf",
      "--devices",
      "2000",
      "--per-day",
      "24",
      "--stack",
      "coap:2",
      "--loads",
      "0.1",
      "--horizon",
      "60",
      "--samples",
      "50",
      "--json",
    ]);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.mode).toBe("fleet");
    expect(doc.stacks).toHaveLength(1);
    const [own, loaded] = doc.stacks[0].points;
    expect(own.loadFactor).toBe(1);
    expect(loaded.offeredLoad.mean).toBeGreaterThan(own.offeredLoad.mean);
    expect(own.completion.p50).toBeGreaterThan(0.52);
  });

  it("bad flags exit 2 with the reason", async () => {
    const runs = await Promise.all([
      cli(["channel", "simulate", "--scenario", "seed003", "--devices", "3"]),
      cli([
        "channel",
        "simulate",
        "--preset",
        "paper",
        "--format",
        "protobuf",
        "--devices",
        "10",
        "--per-day",
        "1",
        "--stack",
        "udp",
      ]),
      cli([
        "channel",
        "simulate",
        "--preset",
        "paper",
        "--format",
        "protobuf",
        "--devices",
        "10",
        "--per-day",
        "1",
        "--slot-bytes",
        "40",
      ]),
      cli(["channel", "wat"]),
    ]);
    for (const r of runs) expect(r.code).toBe(2);
    expect(runs[1]!.err).toContain('unknown stack "udp"');
    expect(runs[2]!.err).toMatch(/slot has no room/);
  });
});
