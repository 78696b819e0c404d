// Load runs over MQTT and CoAP against the real local stack: the decoder stored and forwarded
// exactly the messages the simulated devices saw acknowledged (PUBACK / 2.01), one device each.
import { describe, expect, it } from "vitest";
import { runSettingsSchema } from "#contracts/loadtest/spec.ts";
import { presetLayout } from "../src/layoutSource.ts";
import { runLoadTest } from "../src/run.ts";

const paper = presetLayout("paper");
const quick = {
  wait: { kind: "uniform" as const, min: 0.1, max: 0.3 },
  spawnRate: 200,
  warmupSeconds: 0.5,
  poolSize: 500,
  format: "protobuf" as const,
  devices: 20,
  durationSeconds: 2,
};

describe("load runs over MQTT and CoAP", () => {
  for (const transport of ["mqtt", "coap"] as const)
    it(`${transport}: every acknowledged message stored once and forwarded`, async () => {
      const settings = runSettingsSchema.parse({ ...quick, transport, target: { kind: "local", replicas: 1 } });
      const r = await runLoadTest({ settings, layout: paper, tickMs: 500 });
      expect(r.status).toBe("completed");
      expect(r.targetUrl).toBe(`local stack over ${transport === "mqtt" ? "MQTT" : "CoAP"}`);
      expect(r.requests.measuredFailed).toBe(0);
      expect(r.requests.abandoned).toBe(0);
      expect(r.requests.succeeded).toBe(r.requests.sent);
      expect(r.requests.sent).toBeGreaterThan(20);
      expect(r.server!.records).toBe(r.requests.succeeded);
      expect(r.server!.forwarded).toBe(r.requests.succeeded);
      expect(r.server!.rejected).toBe(0);
      expect(r.server!.uniqueDevices).toBe(20);
      // the paper measured HTTP: no published cell stands beside another transport
      expect(r.paper).toBeNull();
    }, 120_000);

  it("refuses what a transport cannot do: a URL target, CoAP on several replicas", () => {
    expect(
      runSettingsSchema.safeParse({
        ...quick,
        transport: "mqtt",
        target: { kind: "url", url: "http://127.0.0.1:1/ingest" },
      }).success,
    ).toBe(false);
    expect(
      runSettingsSchema.safeParse({ ...quick, transport: "coap", target: { kind: "local", replicas: 2 } }).success,
    ).toBe(false);
    expect(
      runSettingsSchema.safeParse({ ...quick, transport: "mqtt", target: { kind: "local", replicas: 2 } }).success,
    ).toBe(true);
  });
});
