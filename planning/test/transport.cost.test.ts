// Bytes on air in the fleet cost and the fragmentation planner, against what real clients put on a loopback
// socket: libcoap's coap-client, mosquitto_pub and python-requests (the paper's devices), each configured as the
// stack the studio prices. The expected bill is the measured message plus the IP/UDP/TCP headers, which no socket
// shows: those are the RFCs' constants, written here as numbers, not taken from our model.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CODECS, type FormatId } from "#codecs";
import { summarize } from "#codecs/analysis";
import {
  coapCounter,
  httpCounter,
  mqttCounter,
  run,
  type BindAt,
  type Counted,
} from "#codecs-test/helpers/loopback.ts";
import { referencePython } from "#codecs-test/helpers/python.ts";
import { FRAGMENT_HEADER_BYTES, splitRecord } from "../src/fragmentation/header.ts";
import { planFragmentation } from "../src/fragmentation/plan.ts";
import { parsePlatform, platformById } from "../src/platforms/catalog.ts";
import { evaluateFleet, type FormatSizesInput } from "../src/report/fleet.ts";
import { defaultScenario } from "../src/report/scenario.ts";
import { onAirSummary, overheadFn } from "../src/transport/platformStack.ts";

/** RFC 791 IPv4 header without options */
const IPV4 = 20;
/** RFC 768 */
const UDP = 8;
/** RFC 9293 header + the RFC 7323 timestamp option Linux puts on every data segment */
const TCP_LINUX = 20 + 12;

let open: Counted | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});
const tmp = mkdtempSync(path.join(os.tmpdir(), "satpayload-onair-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A counter on a protocol's default port, so the client writes the message a device would (coap-client adds
 * Uri-Port for any other port, and the HTTP Host header carries the port): 127.0.0.2…9 are loopback too and keep
 * "127.0.0.N" as long as the "127.0.0.1" the stack is sized with.
 */
async function onDefaultPort(
  make: (at: BindAt) => Promise<Counted>,
  port: number,
): Promise<{ counted: Counted; host: string }> {
  let last: unknown;
  for (let n = 2; n <= 9; n++) {
    const host = `127.0.0.${n}`;
    try {
      return { counted: await make({ host, port }), host };
    } catch (e) {
      last = e;
    }
  }
  throw new Error(`no loopback address 127.0.0.2–9 has port ${port} free: ${String(last)}`);
}

const PAYLOAD = 138;
const text = (n: number) => "x".repeat(n);
const fixed = (format: FormatId, bytes: number, n = 50): FormatSizesInput => {
  const sizes = new Uint32Array(n).fill(bytes);
  return { format, label: CODECS[format].info.label, stats: summarize(sizes), sizes };
};

/** What coap-client sends for a CON POST of `size` bytes to /telemetry/paper with a 2-byte token: the "coap-con" stack. */
async function coapConDatagram(size: number): Promise<number> {
  const { counted, host } = await onDefaultPort(coapCounter, 5683);
  open = counted;
  await run("coap-client-notls", [
    "-m",
    "post",
    "-T",
    "ab",
    "-B",
    "2",
    "-e",
    text(size),
    `coap://${host}/telemetry/paper`,
  ]);
  const first = counted.received[0]!;
  expect(first.kind).toBe("CON");
  return first.bytes;
}

/** The PUBLISH mosquitto_pub sends at QoS 1, MQTT 3.1.1, to satpayload/paper/<format>: the "mqtt311-q1" stack. */
async function mqttPublishBytes(format: string, file: string): Promise<number> {
  open = await mqttCounter("3.1.1");
  await run("mosquitto_pub", [
    "-h",
    "127.0.0.1",
    "-p",
    String(open.port),
    "-V",
    "mqttv311",
    "-q",
    "1",
    "-t",
    `satpayload/paper/${format}`,
    "-i",
    "satpayload-onair",
    "-f",
    file,
  ]);
  const publish = open.received.find((r) => r.kind === "PUBLISH")!;
  await open.close();
  open = undefined;
  return publish.bytes;
}

/** The request python-requests (the paper's Locust devices) sends to 127.0.0.N:8080/ingest: the "http-paper" stack. */
async function pythonRequestsBytes(size: number): Promise<number> {
  const { counted, host } = await onDefaultPort(httpCounter, 8080);
  open = counted;
  const script = `import requests
requests.post("http://${host}:8080/ingest",data=b"x"*${size},headers={"Content-Type":"application/x-protobuf","X-Satpayload-Layout":"paper"})`;
  await run(referencePython(), ["-c", script]);
  return counted.received.find((r) => r.kind === "request")!.bytes;
}

function fileOf(bytes: Uint8Array, name: string): string {
  const f = path.join(tmp, name);
  writeFileSync(f, bytes);
  return f;
}

describe("fleet cost bills bytes on air on an IP link (NB-IoT, €0.02 per MB of 2^20 B)", () => {
  const messages = 10_000 * 4 * 30;
  const costOf = (stack: "coap-con" | "mqtt311-q1" | "http-paper") => {
    const r = evaluateFleet(
      {
        ...defaultScenario(),
        devices: 10_000,
        cadence: { kind: "per-day", messagesPerDay: 4 },
        months: 1,
        formats: ["protobuf"],
        platforms: ["nbiot-tn", "astrocast"],
        transport: { "nbiot-tn": stack },
      },
      [fixed("protobuf", PAYLOAD)],
      { layout: "paper" },
    );
    return {
      tn: r.cells.find((c) => c.platformId === "nbiot-tn")!,
      astrocast: r.cells.find((c) => c.platformId === "astrocast")!,
    };
  };

  it("CoAP CON: the datagram coap-client sends + UDP + IPv4", async () => {
    const onAir = (await coapConDatagram(PAYLOAD)) + UDP + IPV4;
    const { tn, astrocast } = costOf("coap-con");
    expect(tn.onAir.mean).toBe(onAir);
    expect(tn.monthly.exact).toBeCloseTo((messages * onAir * 0.02) / 2 ** 20, 9);
    // the modem link beside it still bills the payload alone
    expect(astrocast.onAir.mean).toBe(PAYLOAD);
    expect(astrocast.monthly.exact).toBeCloseTo((messages * PAYLOAD * 0.183) / 1024, 6);
  });

  it("MQTT 3.1.1 QoS 1: the PUBLISH mosquitto_pub sends + TCP with timestamps + IPv4", async () => {
    const onAir = (await mqttPublishBytes("protobuf", fileOf(new Uint8Array(PAYLOAD), "p138"))) + TCP_LINUX + IPV4;
    const { tn } = costOf("mqtt311-q1");
    expect(tn.onAir.mean).toBe(onAir);
    expect(tn.monthly.exact).toBeCloseTo((messages * onAir * 0.02) / 2 ** 20, 9);
  });

  it("HTTP/1.1 POST as the paper's devices sent it: the request python-requests sends + TCP + IPv4", async () => {
    const onAir = (await pythonRequestsBytes(PAYLOAD)) + TCP_LINUX + IPV4;
    const { tn } = costOf("http-paper");
    expect(tn.onAir.mean).toBe(onAir);
    expect(tn.monthly.exact).toBeCloseTo((messages * onAir * 0.02) / 2 ** 20, 9);
  });
});

describe("fragmentation on an IP link with a datagram limit: every fragment carries the stack's headers", () => {
  // a link that takes datagrams of at most 200 B and bills each message (an NTN bearer with a small MTU, say)
  const platform = parsePlatform({
    id: "ip-200",
    name: "IP link, 200-byte datagrams",
    network: "satellite",
    link: "ip",
    uplinkBytes: 200,
    billing: { kind: "per-message", price: { amount: 0.01, currency: "EUR" } },
    source: "test",
  });
  const RECORD = 418;

  it("each MQTT fragment mosquitto_pub sends fits 200 B on air, one more record byte would not, and each is billed", async () => {
    const json = fixed("json", RECORD);
    const plan = planFragmentation({
      platform,
      sizes: { mean: RECORD, p95: RECORD, max: RECORD, sizes: json.sizes },
      devices: 100,
      messagesPerDay: 4,
      days: 30,
      transportOverhead: overheadFn("mqtt311-q1", { layout: "paper", format: "json" }),
    });
    expect(plan.mode).toBe("fragmented");
    const room = plan.payloadPerMessage!;
    const fragments = splitRecord(new Uint8Array(RECORD).fill(0x7b), room + FRAGMENT_HEADER_BYTES, 7);
    const onAir: number[] = [];
    for (const [i, f] of fragments.entries())
      onAir.push((await mqttPublishBytes("json", fileOf(f, `frag${i}`))) + TCP_LINUX + IPV4);
    for (const b of onAir) expect(b).toBeLessThanOrEqual(200);
    const oneMore =
      (await mqttPublishBytes("json", fileOf(new Uint8Array(FRAGMENT_HEADER_BYTES + room + 1), "over"))) +
      TCP_LINUX +
      IPV4;
    expect(oneMore).toBeGreaterThan(200);

    expect(plan.fragments.max).toBe(fragments.length);
    expect(plan.sentBytesPerRecord).toBe(onAir.reduce((s, b) => s + b, 0));
    expect(plan.transportBytesPerRecord).toBe(
      onAir.reduce((s, b) => s + b, 0) - RECORD - fragments.length * FRAGMENT_HEADER_BYTES,
    );
    // per-message billing: every fragment is a message
    expect(plan.cost.fragmented.exact!.cost).toBeCloseTo(100 * 4 * 30 * fragments.length * 0.01, 9);
  });

  it("a record that fits on air alone is one message; the same record with CoAP headers is judged on air", async () => {
    const onAir = (await coapConDatagram(170)) + UDP + IPV4;
    expect(onAir).toBeGreaterThan(200);
    const plan = planFragmentation({
      platform,
      sizes: { mean: 170, p95: 170, max: 170, sizes: fixed("protobuf", 170).sizes },
      devices: 1,
      messagesPerDay: 1,
      transportOverhead: overheadFn("coap-con", { layout: "paper", format: "protobuf" }),
    });
    // 170 B of payload fit a 200-byte limit; with the headers coap-client sends they do not
    expect(plan.mode).toBe("fragmented");
    expect(plan.fragments.max).toBe(2);
    const raw = planFragmentation({
      platform,
      sizes: { mean: 170, p95: 170, max: 170 },
      devices: 1,
      messagesPerDay: 1,
    });
    expect(raw.mode).toBe("single");
  });
});

describe("the designer's bytes on air", () => {
  it("a format's messages on NB-IoT are what coap-client sends plus UDP and IPv4, and a datagram limit judges them on air", async () => {
    const small = (await coapConDatagram(100)) + UDP + IPV4;
    const large = (await coapConDatagram(PAYLOAD)) + UDP + IPV4;
    const sizes = Uint32Array.from([100, PAYLOAD, PAYLOAD, PAYLOAD]);
    const tn = onAirSummary(sizes, platformById("nbiot-tn")!, undefined, { layout: "paper", format: "protobuf" });
    expect(tn.stack).toBe("coap-con");
    expect([tn.onAir.min, tn.onAir.p50, tn.onAir.max]).toEqual([small, large, large]);
    expect(tn.limit).toBeNull();
    // a 160-byte datagram limit: the 100-byte payload fits on air, the 138-byte ones do not
    const limited = parsePlatform({
      id: "ip-160",
      name: "IP link, 160-byte datagrams",
      network: "satellite",
      link: "ip",
      uplinkBytes: 160,
      billing: { kind: "per-message" },
      source: "test",
    });
    const judged = onAirSummary(sizes, limited, "coap-con", { layout: "paper", format: "protobuf" });
    expect(small).toBeLessThanOrEqual(160);
    expect(large).toBeGreaterThan(160);
    expect([judged.fitsMax, judged.shareOver]).toEqual([false, 0.75]);
    // on Astrocast (a modem link) the payload is what is on air and what the 160-byte limit judges
    const astro = onAirSummary(sizes, platformById("astrocast")!, undefined, { layout: "paper", format: "protobuf" });
    expect([astro.stack, astro.onAir.max, astro.fitsMax]).toEqual(["raw", PAYLOAD, true]);
  });
});
