import { describe, expect, it } from "vitest";
import { runSettingsSchema } from "#contracts/loadtest/spec.ts";
import { targetLabel } from "./history.ts";
import { resolveStackTarget } from "./service.ts";
import type { StackStatus } from "../api/stack.ts";

const settings = runSettingsSchema.parse({
  format: "protobuf",
  devices: 10,
  durationSeconds: 5,
  target: { kind: "stack" },
});

const status = (state: StackStatus["state"], owner: StackStatus["owner"] = "app"): StackStatus => ({
  state,
  owner,
  ownerPid: 4242,
  options: {
    replicas: 3,
    container: "device",
    cseOrigin: "CAdmin",
    bodyLimit: 65536,
    csePort: 0,
    decoderPort: 0,
  } as StackStatus["options"],
  services: [],
  endpoints: {
    ingest: "http://127.0.0.1:41769/ingest",
    ingestBase64: "http://127.0.0.1:41769/ingest/base64",
    latest: "http://127.0.0.1:41769/api/latest",
    stats: "http://127.0.0.1:41769/api/stats",
    events: "http://127.0.0.1:41769/api/events",
    health: "http://127.0.0.1:41769/health",
    cse: "http://127.0.0.1:41459/Mobius",
    container: "http://127.0.0.1:41459/Mobius/decoder/<device key>",
    routes: [],
  },
  dir: "/tmp/x/stack",
  startedAt: "2026-11-24T20:00:00.000Z",
  error: null,
});

describe("the running-stack target", () => {
  it("is filled in from the stack's status, so the record says which stack was used", () => {
    for (const s of [status("running"), status("degraded"), status("running", "cli")]) {
      const t = resolveStackTarget(settings, s).target;
      expect(t).toEqual({
        kind: "stack",
        decoderUrl: "http://127.0.0.1:41769",
        cseBaseUrl: "http://127.0.0.1:41459/Mobius",
        replicas: 3,
        startedAt: "2026-11-24T20:00:00.000Z",
      });
      expect(targetLabel(t)).toBe("running stack × 3 at 127.0.0.1:41769");
    }
  });

  it("is refused with the reason when no stack answers", () => {
    for (const s of [undefined, status("stopped"), status("starting"), { ...status("running"), endpoints: null }])
      expect(() => resolveStackTarget(settings, s)).toThrow(
        expect.objectContaining({ code: "bad_request", message: expect.stringMatching(/no stack is running/) }),
      );
  });

  it("carries the stack's MQTT broker or CoAP server for a run over that transport", () => {
    const up = status("running");
    up.endpoints = { ...up.endpoints!, mqtt: "mqtt://127.0.0.1:41800", coap: "coap://127.0.0.1:41801" };
    expect(resolveStackTarget({ ...settings, transport: "mqtt" }, up).target).toMatchObject({
      kind: "stack",
      decoderUrl: "http://127.0.0.1:41769",
      mqttUrl: "mqtt://127.0.0.1:41800",
    });
    const coap = resolveStackTarget({ ...settings, transport: "coap" }, up).target;
    expect(coap).toMatchObject({ coapUrl: "coap://127.0.0.1:41801" });
    expect(coap).not.toHaveProperty("mqttUrl");
    // an HTTP run takes neither
    expect(resolveStackTarget(settings, up).target).not.toHaveProperty("mqttUrl");
  });

  it("refuses MQTT or CoAP on a stack started without it, with the reason on the transport", () => {
    for (const t of ["mqtt", "coap"] as const)
      expect(() => resolveStackTarget({ ...settings, transport: t }, status("running"))).toThrow(
        expect.objectContaining({
          code: "bad_request",
          message: expect.stringMatching(
            new RegExp(`^the running stack does not take ${t === "mqtt" ? "MQTT" : "CoAP"}: .*--${t}-port 0`),
          ),
          issues: [expect.objectContaining({ path: "transport" })],
        }),
      );
  });

  it("accepts MQTT and CoAP settings for the running stack (the host checks what it serves)", () => {
    expect(
      runSettingsSchema.safeParse({
        format: "protobuf",
        devices: 1,
        durationSeconds: 1,
        transport: "mqtt",
        target: { kind: "stack" },
      }).success,
    ).toBe(true);
  });

  it("leaves other targets alone", () => {
    const local = { ...settings, target: { kind: "local" as const, replicas: 2 } };
    expect(resolveStackTarget(local, undefined)).toBe(local);
    expect(targetLabel(local.target)).toBe("new stack for this run × 2");
  });
});
