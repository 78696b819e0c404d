// Each stack's application-layer overhead against bytes real clients put on a loopback socket:
// mosquitto_pub (MQTT 3.1.1 and 5, QoS 0 and 1), libcoap's coap-client (CON and NON), curl and
// python-requests (HTTP/1.1 POST, as the paper's Locust devices sent it). IP/UDP/TCP/TLS header
// sizes are fixed by their RFCs and cannot be seen from a socket; they are checked as constants.
import { afterEach, describe, expect, it } from "vitest";
import {
  coapCounter,
  freeUdpPortPair,
  httpCounter,
  mqttCounter,
  run,
  udpRelay,
  type Counted,
} from "#codecs-test/helpers/loopback.ts";
import { spawnOwned } from "#codecs-test/helpers/processes/owned.ts";
import { referencePython } from "#codecs-test/helpers/python.ts";
import {
  coapMessageHeaderBytes,
  DTLS12_CCM8_RECORD,
  httpPostHeaderBytes,
  mqttConnectBytes,
  mqttOverhead,
  mqttPublishHeaderBytes,
  mqttSnPublishHeaderBytes,
  TLS12_GCM_RECORD,
  TLS13_RECORD,
  coapOverhead,
} from "../src/transport/overhead.ts";
import { pythonRequestsHeaders } from "../src/transport/stacks.ts";

let open: Counted | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const payload = (n: number): string => "x".repeat(n);

describe("MQTT PUBLISH and CONNECT bytes from mosquitto_pub", () => {
  for (const version of ["3.1.1", "5"] as const) {
    for (const qos of [0, 1] as const) {
      for (const size of [10, 200]) {
        it(`MQTT ${version} QoS ${qos}, ${size} B payload`, async () => {
          open = await mqttCounter(version);
          const topic = "satpayload/paper/protobuf";
          const clientId = "satpayload-test-1";
          await run("mosquitto_pub", [
            "-h",
            "127.0.0.1",
            "-p",
            String(open.port),
            "-V",
            version === "5" ? "mqttv5" : "mqttv311",
            "-q",
            String(qos),
            "-t",
            topic,
            "-i",
            clientId,
            "-m",
            payload(size),
          ]);
          const publish = open.received.find((r) => r.kind === "PUBLISH")!;
          expect(publish.bytes).toBe(mqttPublishHeaderBytes({ version, qos, topic }, size) + size);
          const connect = open.received.find((r) => r.kind === "CONNECT")!;
          // mosquitto's v5 CONNECT announces Receive Maximum = 20 (3 B of properties): its in-flight window
          expect(connect.bytes).toBe(mqttConnectBytes(version, clientId, version === "5" ? 3 : 0));
        });
      }
    }
  }
});

describe("CoAP message bytes from libcoap's coap-client", () => {
  for (const confirmable of [true, false]) {
    for (const size of [0, 100]) {
      it(`${confirmable ? "CON" : "NON"} POST, ${size} B payload, 4-byte token, two Uri-Path segments`, async () => {
        open = await coapCounter();
        const token = "a1b2"; // coap-client sends -T's characters as the token bytes
        const args = [
          "-m",
          "post",
          "-T",
          token,
          "-B",
          "2",
          ...(confirmable ? [] : ["-N"]),
          ...(size > 0 ? ["-e", payload(size)] : []),
          `coap://127.0.0.1:${open.port}/telemetry/paper`,
        ];
        await run("coap-client-notls", args);
        const first = open.received[0]!;
        expect(first.kind).toBe(confirmable ? "CON" : "NON");
        // a port other than 5683 makes the client add Uri-Port
        expect(first.bytes).toBe(
          coapMessageHeaderBytes({ tokenLength: 4, uriPath: ["telemetry", "paper"], uriPort: open.port }, size) + size,
        );
      });
    }
  }
});

describe("DTLS 1.2 record bytes from coap-client-openssl to coap-server-openssl (PSK)", () => {
  it("the application-data record adds 29 B to the CoAP message (13 B header + CCM_8 nonce and tag)", async () => {
    const port = await freeUdpPortPair();
    const server = spawnOwned(
      "coap-server-openssl",
      ["-A", "127.0.0.1", "-p", String(port), "-k", "satpayload-psk", "-v", "0"],
      { stdio: "ignore" },
    );
    const relay = await udpRelay(port + 1);
    try {
      // the server may take a moment to bind: the client retries the handshake on its own
      await run("coap-client-openssl", [
        "-k",
        "satpayload-psk",
        "-u",
        "device1",
        "-m",
        "put",
        "-T",
        "ab",
        "-e",
        "hello",
        "-B",
        "5",
        `coaps://127.0.0.1:${relay.port}/example_data`,
      ]);
      const appData = relay.toServer.filter((d) => d.first === 23);
      expect(appData.length).toBeGreaterThan(0);
      const coap = coapMessageHeaderBytes({ tokenLength: 2, uriPath: ["example_data"], uriPort: relay.port }, 5) + 5;
      expect(appData[0]!.bytes - coap).toBe(DTLS12_CCM8_RECORD);
    } finally {
      await server.stop();
      await relay.close();
    }
  });
});

describe("HTTP/1.1 POST head bytes", () => {
  it("curl, with the decoder's headers", async () => {
    open = await httpCounter();
    const version = /^curl (\S+)/.exec(await run("curl", ["--version"]))![1]!;
    const host = `127.0.0.1:${open.port}`;
    await run("curl", [
      "-s",
      "-X",
      "POST",
      "--data-binary",
      payload(138),
      "-H",
      "Content-Type: application/x-protobuf",
      "-H",
      "X-Satpayload-Layout: paper",
      `http://${host}/ingest`,
    ]);
    const head = open.received.find((r) => r.kind === "head")!;
    const headers: Array<[string, string]> = [
      ["User-Agent", `curl/${version}`],
      ["Accept", "*/*"],
      ["Content-Type", "application/x-protobuf"],
      ["X-Satpayload-Layout", "paper"],
    ];
    expect(head.bytes).toBe(httpPostHeaderBytes({ host, path: "/ingest", headers }, 138));
  });

  it("python-requests, as the paper's Locust devices sent it", async () => {
    open = await httpCounter();
    const host = `127.0.0.1:${open.port}`;
    const script = `import requests,sys
r=requests.post("http://${host}/ingest",data=b"x"*138,headers={"Content-Type":"application/x-protobuf","X-Satpayload-Layout":"paper"})
print(requests.__version__);print(requests.utils.default_headers()["Accept-Encoding"])`;
    const [version, acceptEncoding] = (await run(referencePython(), ["-c", script])).trim().split("\n") as [
      string,
      string,
    ];
    const head = open.received.find((r) => r.kind === "head")!;
    expect(head.bytes).toBe(
      httpPostHeaderBytes(
        {
          host,
          path: "/ingest",
          headers: pythonRequestsHeaders(version, "application/x-protobuf", "paper", acceptEncoding),
        },
        138,
      ),
    );
  });
});

describe("header sizes fixed by the standards", () => {
  it("record and header constants", () => {
    expect(DTLS12_CCM8_RECORD).toBe(29);
    expect(TLS12_GCM_RECORD).toBe(29);
    expect(TLS13_RECORD).toBe(22);
    // MQTT-SN PUBLISH: 7 B below 249 B of data, 9 B above (3-byte length)
    expect(mqttSnPublishHeaderBytes(248)).toBe(7);
    expect(mqttSnPublishHeaderBytes(249)).toBe(9);
    // CoAP over IPv6 carries 20 B more IP header than over IPv4
    const v4 = coapOverhead({ ip: 4, confirmable: true, tokenLength: 2, uriPath: ["t"], dtls: false }, 50);
    const v6 = coapOverhead({ ip: 6, confirmable: true, tokenLength: 2, uriPath: ["t"], dtls: false }, 50);
    expect(v6.overhead - v4.overhead).toBe(20);
    expect(
      mqttOverhead({ version: "3.1.1", qos: 1, topic: "t", ip: 4, tls: "tls1.2", tcpTimestamps: true }, 50).layers.map(
        (l) => l.bytes,
      ),
    ).toEqual([7, 29, 32, 20]);
  });
});
