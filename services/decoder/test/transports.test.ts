// MQTT and CoAP ingest on a real decoder process, driven by clients nobody here wrote: Debian's
// mosquitto_pub (QoS 1) and libcoap's coap-client, plus MQTT.js where the test must watch packets.
// Records land in the buffer and as cins in the embedded CSE; bad input becomes a dead letter with
// its reason; keys are checked at CONNECT / per request; a PUBACK never precedes the durable commit.
import { createSocket } from "node:dgram";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import coap from "coap";
import mqtt from "mqtt";
import { describe, expect, it } from "vitest";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { cseProcess, client, encodedSamples, m2mGet, spawnDecoder, tempDir, waitFor } from "./support.ts";
import { addKey } from "../../shared/credentials.ts";

// owned: a client still running after 30 s, or when its test ends, is stopped
const run = async (cmd: string, args: string[]) => {
  const r = await runOwned(cmd, args, { timeoutMs: 30_000 });
  return { code: typeof r.code === "number" ? r.code : -1, stdout: r.stdout, stderr: r.stderr };
};

const portOf = (url: unknown) => new URL(String(url)).port;

/** local addresses the process listens on for a port, from the kernel's socket tables */
function boundAddresses(table: "tcp" | "udp", port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  return readFileSync(`/proc/net/${table}`, "utf8")
    .split("\n")
    .slice(1)
    .map((l) => l.trim().split(/\s+/)[1] ?? "")
    .filter((local) => local.endsWith(`:${hexPort}`))
    .map((local) => {
      const hex = local.split(":")[0]!;
      return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join(".");
    });
}

describe("ingest over MQTT and CoAP", () => {
  it(
    "stores and forwards records from mosquitto_pub and coap-client, dead-letters bad ones with the reason, binds loopback only",
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      const cse = await cseProcess(["--port", "0", "--data-dir", tempDir()]);
      const d = await spawnDecoder([
        "--data-dir",
        dir,
        "--preset",
        "paper",
        "--cse",
        cse.cseBaseUrl,
        "--mqtt-port",
        "0",
        "--coap-port",
        "0",
        "--retry-base-ms",
        "50",
      ]);
      const mqttPort = portOf(d.listening.mqtt);
      const coapPort = portOf(d.listening.coap);
      expect(boundAddresses("tcp", Number(mqttPort))).toEqual(["127.0.0.1"]);
      expect(boundAddresses("udp", Number(coapPort))).toEqual(["127.0.0.1"]);

      const pb = encodedSamples("protobuf", 3, 41);
      const cbor = encodedSamples("cbor", 3, 42);
      const files = [...pb.map((b, i) => [`m${i}.pb`, b] as const), ...cbor.map((b, i) => [`c${i}.cbor`, b] as const)];
      for (const [name, bytes] of files) writeFileSync(path.join(dir, name), bytes);

      // mosquitto_pub, QoS 1: it reports the PUBACK it received
      for (let i = 0; i < pb.length; i++) {
        const r = await run("mosquitto_pub", [
          "-h",
          "127.0.0.1",
          "-p",
          mqttPort,
          "-q",
          "1",
          "-d",
          "-i",
          `pub-${i}`,
          "-t",
          `satpayload/-/paper/protobuf/mq-${i}`,
          "-f",
          path.join(dir, `m${i}.pb`),
        ]);
        expect(r.code, r.stderr + r.stdout).toBe(0);
        expect(r.stdout).toContain("received PUBACK");
      }
      // coap-client: confirmable POST, the answer is the stored record's JSON
      for (let i = 0; i < cbor.length; i++) {
        const r = await run("coap-client-notls", [
          "-m",
          "post",
          "-t",
          "60",
          "-f",
          path.join(dir, `c${i}.cbor`),
          `coap://127.0.0.1:${coapPort}/ingest?layout=paper&id=co-${i}`,
        ]);
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout.trim())).toMatchObject({
          messageId: `co-${i}`,
          layout: "paper",
          format: "cbor",
          duplicate: false,
        });
      }
      // a CoAP retransmission after a lost answer, or a resend: the same id is stored once
      const again = await run("coap-client-notls", [
        "-m",
        "post",
        "-t",
        "60",
        "-f",
        path.join(dir, "c0.cbor"),
        `coap://127.0.0.1:${coapPort}/ingest?layout=paper&id=co-0`,
      ]);
      expect(JSON.parse(again.stdout.trim())).toMatchObject({ messageId: "co-0", duplicate: true });

      // bad input: garbage over MQTT is acknowledged (final, like an HTTP 400) and kept as a dead letter;
      // a subscriber on the client's own error topic hears the reason. Over CoAP: 4.00 with the reason.
      const watcher = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
        clientId: "bad-device",
        reconnectPeriod: 0,
      });
      await watcher.subscribeAsync("satpayload-errors/bad-device", { qos: 0 });
      const notice = new Promise<{ error: string; reason: string }>((resolve) =>
        watcher.once("message", (_t, m) => resolve(JSON.parse(m.toString()))),
      );
      await watcher.publishAsync("satpayload/paper/protobuf", Buffer.from("not protobuf at all"), { qos: 1 });
      const heard = await notice;
      expect(heard.error).toBe("undecodable");
      // nobody may listen to another client's errors or to the telemetry itself
      const denied = await watcher.subscribeAsync(["satpayload/#", "satpayload-errors/other"], { qos: 0 }).then(
        () => undefined,
        (e: { packet?: { granted?: number[] } }) => e.packet?.granted,
      );
      expect(denied).toEqual([128, 128]);
      await watcher.endAsync();
      const badPub = await run("mosquitto_pub", [
        "-h",
        "127.0.0.1",
        "-p",
        mqttPort,
        "-q",
        "1",
        "-d",
        "-t",
        "satpayload/paper/cbor",
        "-m",
        "\u00ff\u00ff\u00ff",
      ]);
      expect(badPub.stdout).toContain("received PUBACK");
      const badCoap = await run("coap-client-notls", [
        "-m",
        "post",
        "-t",
        "42",
        "-e",
        "junk",
        `coap://127.0.0.1:${coapPort}/container-data`,
      ]);
      const coapRefusal = /4\.00\s+(\{.*\})/s.exec(badCoap.stdout + badCoap.stderr);
      expect(coapRefusal, badCoap.stdout + badCoap.stderr).not.toBeNull();
      expect(JSON.parse(coapRefusal![1]!)).toMatchObject({ error: "undecodable" });
      // refusals without a dead letter: an unknown layout over CoAP is 4.04, a topic outside the scheme is acknowledged and counted
      const unknown = await run("coap-client-notls", [
        "-m",
        "post",
        "-t",
        "60",
        "-f",
        path.join(dir, "c1.cbor"),
        `coap://127.0.0.1:${coapPort}/ingest?layout=nope`,
      ]);
      expect(unknown.stdout + unknown.stderr).toMatch(/4\.04\s+\{"error":"unknown_layout"/);

      const c = client(d.url);
      const dead = JSON.parse((await c.get("/api/dead-letters")).body) as {
        deadLetters: { format: string; reason: string }[];
      };
      expect(dead.deadLetters).toHaveLength(3);
      expect(dead.deadLetters.map((x) => x.reason)).toContain(heard.reason);
      expect(dead.deadLetters.map((x) => x.reason)).toContain(JSON.parse(coapRefusal![1]!).reason);
      for (const x of dead.deadLetters) expect(x.reason).toMatch(/^(protobuf|cbor): /);

      // every record reached the CSE as a cin under its device's container, named by its message id
      const latest = await waitFor(
        "all six records forwarded",
        async () => {
          const s = JSON.parse((await c.get("/api/stats")).body) as { records: number; forwarded: number };
          return s.records === 6 && s.forwarded === 6
            ? (JSON.parse((await c.get("/api/latest?limit=100")).body) as { records: { device: string }[] })
            : undefined;
        },
        60_000,
        100,
      );
      const db = new Database(path.join(dir, "buffer-0.sqlite"), { readonly: true });
      const rows = db.prepare("SELECT message_id AS id, device, rn, format FROM records ORDER BY seq").all() as {
        id: string;
        device: string;
        rn: string;
        format: string;
      }[];
      db.close();
      expect(rows.map((r) => r.id).sort()).toEqual(["co-0", "co-1", "co-2", "mq-0", "mq-1", "mq-2"]);
      expect(latest.records.length).toBeGreaterThan(0);
      for (const r of rows) {
        const cin = await m2mGet(cse.cseBaseUrl, `decoder/${r.device}/${r.rn}`);
        expect(cin.status, `${r.id} in the CSE`).toBe(200);
      }
      await d.stop();
    },
  );

  it(
    "checks keys: MQTT CONNACK refuses a missing or wrong key, CoAP answers 4.01/4.03; a device key writes its own device only",
    { timeout: 90_000 },
    async () => {
      const dir = tempDir();
      const keys = path.join(dir, "keys.json");
      const fleet = addKey(keys, { role: "fleet" }).token;
      const reader = addKey(keys, { role: "reader" }).token;
      const d = await spawnDecoder([
        "--data-dir",
        dir,
        "--preset",
        "paper",
        "--auth",
        "on",
        "--keys",
        keys,
        "--mqtt-port",
        "0",
        "--coap-port",
        "0",
        "--auth-refusals",
        "1000",
      ]);
      const mqttPort = portOf(d.listening.mqtt);
      const coapPort = portOf(d.listening.coap);
      const [rec] = encodedSamples("protobuf", 1, 5);
      const file = path.join(dir, "r.pb");
      writeFileSync(file, rec!);

      const pub = (extra: string[], id: string) =>
        run("mosquitto_pub", [
          "-h",
          "127.0.0.1",
          "-p",
          mqttPort,
          "-q",
          "1",
          "-d",
          "-t",
          `satpayload/-/paper/protobuf/${id}`,
          "-f",
          file,
          ...extra,
        ]);
      const none = await pub([], "k-0");
      expect(none.code).not.toBe(0);
      expect(none.stdout + none.stderr).toMatch(/CONNACK \(4\)|bad user name or password/i);
      const wrong = await pub(["-u", "dev", "-P", "spk_000000000000_" + "A".repeat(43)], "k-1");
      expect(wrong.code).not.toBe(0);
      expect(wrong.stdout + wrong.stderr).toMatch(/CONNACK \(5\)|not authori[sz]ed/i);
      const asReader = await pub(["-u", "dev", "-P", reader], "k-2");
      expect(asReader.code).not.toBe(0);
      const ok = await pub(["-u", "dev", "-P", fleet], "k-3");
      expect(ok.code, ok.stdout + ok.stderr).toBe(0);
      expect(ok.stdout).toContain("received PUBACK");

      // libcoap's client cuts a long URI's query, so the key goes as an explicit Uri-Query option (15)
      const coap = async (id: string, key?: string) => {
        const r = await run("coap-client-notls", [
          "-m",
          "post",
          "-t",
          "42",
          "-f",
          file,
          ...(key ? ["-O", `15,key=${key}`] : []),
          `coap://127.0.0.1:${coapPort}/ingest?layout=paper&format=protobuf&id=${id}`,
        ]);
        return { ...r, stdout: r.stdout + r.stderr };
      };
      expect((await coap("k-4")).stdout).toMatch(/4\.01\s+\{"error":"unauthenticated"/);
      expect((await coap("k-5", reader)).stdout).toMatch(/4\.03\s+\{"error":"forbidden"/);
      const coapOk = await coap("k-6", fleet);
      expect(JSON.parse(coapOk.stdout.trim()), coapOk.stdout).toMatchObject({ messageId: "k-6", duplicate: false });

      // a device key: its own device's record yes, another device's no (over MQTT, the refusal is final and published)
      const ownDevice = (JSON.parse(coapOk.stdout.trim()) as { device: string }).device;
      const deviceKey = addKey(keys, { role: "device", device: "someone-else" }).token;
      await waitFor(
        "the new key",
        async () =>
          /4\.03.*writes for device \\"someone-else\\"/.test((await coap("k-7", deviceKey)).stdout) || undefined,
        10_000,
        200,
      );
      await d.stop();
      const db = new Database(path.join(dir, "buffer-0.sqlite"), { readonly: true });
      const rows = db.prepare("SELECT message_id AS id, device FROM records ORDER BY seq").all() as {
        id: string;
        device: string;
      }[];
      db.close();
      expect(rows).toEqual([
        { id: "k-3", device: ownDevice },
        { id: "k-6", device: ownDevice },
      ]);
    },
  );

  it(
    "sends a QoS 1 PUBACK only after the record is durable: a buffer locked by another connection holds it back",
    { timeout: 90_000 },
    async () => {
      const dir = tempDir();
      const d = await spawnDecoder(["--data-dir", dir, "--preset", "paper", "--mqtt-port", "0"]);
      const [rec] = encodedSamples("protobuf", 1, 9);
      const device = await mqtt.connectAsync(String(d.listening.mqtt), {
        clientId: "slow-commit",
        reconnectPeriod: 200,
      });
      // warm up: the buffer file exists and the first commit is done
      await device.publishAsync("satpayload/-/paper/protobuf/warm", Buffer.from(rec!), { qos: 1 });

      // another connection takes SQLite's write lock: the decoder's commit cannot happen until it is released
      const lock = new Database(path.join(dir, "buffer-0.sqlite"));
      lock.pragma("busy_timeout = 10000");
      lock.exec("BEGIN EXCLUSIVE");
      const stored = () =>
        lock.prepare("SELECT count(*) FROM records WHERE message_id = 'held'").pluck().get() as number;

      const order: string[] = [];
      let released = false;
      let storedAtAck = -1;
      device.on("packetreceive", (p) => {
        if (p.cmd === "puback") order.push(`puback ${p.messageId}${released ? " after release" : " before release"}`);
      });
      const held = device.publishAsync("satpayload/-/paper/protobuf/held", Buffer.from(rec!), { qos: 1 }).then(() => {
        const check = new Database(path.join(dir, "buffer-0.sqlite"), { readonly: true });
        storedAtAck = check.prepare("SELECT count(*) FROM records WHERE message_id = 'held'").pluck().get() as number;
        check.close();
      });
      // a later publish the broker refuses at once (topic outside the scheme) is acknowledged while
      // the first waits: the broker has read both, and only the durable one is held back
      await device.publishAsync("elsewhere/x", Buffer.from("x"), { qos: 1 });
      expect(order).toHaveLength(1);
      expect(stored()).toBe(0);
      // hold the lock past the decoder's busy timeout (5 s): its commit fails, the message is not
      // acknowledged and the connection closes; MQTT.js resends it after reconnecting
      await new Promise((r) => setTimeout(r, 6000));
      expect(stored()).toBe(0);
      released = true;
      lock.exec("ROLLBACK");
      lock.close();
      await held;
      expect(order.filter((o) => o.includes("before release"))).toHaveLength(1);
      expect(order.some((o) => o.includes("after release"))).toBe(true);
      expect(storedAtAck).toBe(1);
      await device.endAsync();
      await d.stop();
    },
  );

  it(
    "answers a confirmable CoAP POST only after the record is durable: no ACK, not even an empty one, while the buffer is locked",
    { timeout: 90_000 },
    async () => {
      const dir = tempDir();
      const d = await spawnDecoder(["--data-dir", dir, "--preset", "paper", "--coap-port", "0"]);
      const port = Number(portOf(d.listening.coap));
      const [rec] = encodedSamples("protobuf", 1, 10);
      // the device's own socket, so the test sees every datagram the server sends, empty ACKs included
      const sock = createSocket("udp4");
      await new Promise<void>((r) => sock.bind(0, "127.0.0.1", () => r()));
      let released = false;
      const seen: { type: number; code: string; released: boolean }[] = [];
      sock.on("message", (m: Buffer) =>
        seen.push({ type: (m[0]! >> 4) & 3, code: `${m[1]! >> 5}.${String(m[1]! & 31).padStart(2, "0")}`, released }),
      );
      const agent = new coap.Agent({ socket: sock });
      const post = (pathname: string, query: string) =>
        new Promise<{ code: string; storedAtAnswer: number }>((resolve, reject) => {
          const req = agent.request({
            hostname: "127.0.0.1",
            port,
            method: "POST",
            pathname,
            query,
            confirmable: true,
          });
          req.on("response", (res: coap.IncomingMessage) => {
            const check = new Database(path.join(dir, "buffer-0.sqlite"), { readonly: true });
            const storedAtAnswer = check
              .prepare("SELECT count(*) FROM records WHERE message_id = 'held'")
              .pluck()
              .get() as number;
            check.close();
            resolve({ code: res.code, storedAtAnswer });
          });
          req.on("error", reject);
          req.end(Buffer.from(rec!));
        });
      await post("/ingest", "layout=paper&format=protobuf&id=warm");
      seen.length = 0;

      const lock = new Database(path.join(dir, "buffer-0.sqlite"));
      lock.pragma("busy_timeout = 10000");
      lock.exec("BEGIN EXCLUSIVE");
      const held = post("/ingest", "layout=paper&format=protobuf&id=held");
      // a later request the server answers at once (no such resource): it has read both datagrams
      const other = await post("/nowhere", "");
      expect(other.code).toBe("4.04");
      // longer than node-coap's own empty-ACK delay (50 ms), shorter than the decoder's busy timeout (5 s)
      await new Promise((r) => setTimeout(r, 1000));
      expect(seen.filter((x) => !x.released)).toEqual([{ type: 2, code: "4.04", released: false }]);
      released = true;
      lock.exec("ROLLBACK");
      lock.close();
      const answer = await held;
      expect(answer).toEqual({ code: "2.01", storedAtAnswer: 1 });
      // the held request's only datagram: a piggybacked ACK (type 2) carrying 2.01, after the release
      expect(seen.filter((x) => x.released)).toEqual([{ type: 2, code: "2.01", released: true }]);
      agent.close();
      await d.stop();
    },
  );
});
