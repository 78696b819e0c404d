// Ingest over MQTT 3.1.1: an embedded aedes broker whose authorizePublish hook stores the message
// and calls back only after the durable group commit. aedes writes a QoS 1 PUBACK (QoS 2 PUBREC)
// only after that callback (lib/handlers/publish.js: authorizePublish, then enqueuePublish), so an
// acknowledged message is on disk. A broker that acks on receipt (mosquitto) cannot promise that.
//
// Topics (docs/stack.md "MQTT ingest"):
//   satpayload/<layout>/<format>
//   satpayload/<device>/<layout>/<format>
//   satpayload/<device>/<layout>/<format>/<message id>    ("-" as device: none named)
// A batch message (one record per reading) names its form at the format level, as a route spec
// does: <format>:batch=columns|delta.
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { Aedes, type AuthenticateError, type Client, type PublishPacket } from "aedes";
import { INGEST_TOPIC_ROOT } from "#planning/ingest";
import type { AuthGuard, Writer } from "../auth/guard.ts";
import { IngestError } from "../errors.ts";
import { binaryMeta, HEADER } from "../request.ts";
import type { MessageStore, StoredMessage } from "./messageStore.ts";

/** where a client hears why one of its messages was refused (it may subscribe to its own only) */
export const ERROR_TOPIC_ROOT = "satpayload-errors";
export const MQTT_KEY_HINT = "the MQTT password (or the user name when there is no password) = a device or fleet key";

export interface MqttIngestDeps {
  store: MessageStore;
  guard: AuthGuard;
  bodyLimit: number;
  log: (msg: string) => void;
}

export interface MqttIngest {
  port: number;
  /** publishes get no acknowledgement from now on (the connection closes, the device resends later) */
  beginStop(): void;
  close(): Promise<void>;
}

/** a topic → the headers an HTTP sender would have sent, so one parser checks both */
export function topicHeaders(topic: string): Record<string, string> {
  const levels = topic.split("/");
  if (levels[0] !== INGEST_TOPIC_ROOT || levels.length < 3 || levels.length > 5)
    throw new IngestError(
      "not_found",
      `topic "${topic.slice(0, 200)}" is not ${INGEST_TOPIC_ROOT}/[<device>/]<layout>/<format>[/<message id>]`,
    );
  const [device, layout, format, messageId] =
    levels.length === 3
      ? [undefined, levels[1]!, levels[2]!, undefined]
      : [levels[1], levels[2]!, levels[3]!, levels[4]];
  const [formatName, ...settings] = format.split(":");
  const h: Record<string, string> = {
    "content-type": "application/octet-stream",
    [HEADER.layout]: layout,
    [HEADER.format]: formatName!.toLowerCase(),
  };
  for (const setting of settings) {
    const m = /^batch=(.*)$/.exec(setting);
    if (!m || h[HEADER.batch] !== undefined)
      throw new IngestError(
        "bad_request",
        `topic level "${format.slice(0, 80)}" is not <format> or <format>:batch=columns|delta`,
      );
    h[HEADER.batch] = m[1]!;
  }
  if (device !== undefined && device !== "-") h[HEADER.device] = device;
  if (messageId !== undefined) h[HEADER.messageId] = messageId;
  return h;
}

export async function startMqttIngest(d: MqttIngestDeps, port: number, host: string): Promise<MqttIngest> {
  const writers = new WeakMap<Client, Writer>();
  let stopping = false;
  const sourceOf = (client: Client) => (client.conn as Socket).remoteAddress ?? "unknown";

  const notify = (client: Client, topic: string, e: IngestError) => {
    broker.publish(
      {
        cmd: "publish",
        topic: `${ERROR_TOPIC_ROOT}/${client.id}`,
        payload: Buffer.from(JSON.stringify({ error: e.code, reason: e.message, topic })),
        qos: 0,
        retain: false,
        dup: false,
      },
      () => {},
    );
  };

  const ingest = async (client: Client, packet: PublishPacket): Promise<StoredMessage> => {
    const receivedAt = Date.now();
    const writer = writers.get(client) ?? "open";
    const payload = typeof packet.payload === "string" ? Buffer.from(packet.payload) : packet.payload;
    const bytes = new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
    let meta;
    try {
      meta = binaryMeta(topicHeaders(packet.topic));
      if (bytes.length > d.bodyLimit)
        throw new IngestError(
          "too_large",
          `the payload is ${bytes.length} bytes, larger than the limit of ${d.bodyLimit}`,
        );
    } catch (e) {
      if (e instanceof IngestError) d.store.countRejected();
      throw e;
    }
    return d.store.store({
      meta,
      bytes,
      body: bytes,
      receivedAt,
      bindDevice: (named) => d.guard.bindDevice(sourceOf(client), writer, named),
    });
  };

  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const token = password && password.length > 0 ? password.toString("utf8") : username || undefined;
      try {
        writers.set(client, d.guard.writer({ token, source: sourceOf(client) }, MQTT_KEY_HINT));
        done(null, true);
      } catch (e) {
        if (!(e instanceof IngestError)) throw e;
        // CONNACK 4 (bad user name or password) without a key, 5 (not authorized) for a wrong one
        done(
          Object.assign(new Error(e.message), {
            returnCode: e.code === "unauthenticated" ? 4 : 5,
          }) as AuthenticateError,
          null,
        );
      }
    },
    authorizePublish: (client, packet, callback) => {
      if (!client) return callback(new Error("only clients publish here"));
      if (stopping) return callback(new Error("the decoder is shutting down"));
      // a retained message per topic would pile up in the broker's memory (topics carry message ids)
      packet.retain = false;
      ingest(client, packet).then(
        () => callback(null),
        (e: unknown) => {
          // bad input is final, as an HTTP 4xx: acknowledged (the payload, if undecodable, is a
          // dead letter) and the reason published to the client's error topic. MQTT 3.1.1 has no
          // negative PUBACK, and refusing by closing would make the device resend it for ever.
          if (e instanceof IngestError && e.status < 500) {
            notify(client, packet.topic, e);
            return callback(null);
          }
          // not stored: no PUBACK, the connection closes and the device sends it again
          if (!(e instanceof IngestError))
            d.log(`mqtt: ${packet.topic} not stored: ${(e as Error).stack ?? String(e)}`);
          callback(e instanceof Error ? e : new Error(String(e)));
        },
      );
    },
    authorizeSubscribe: (client, sub, callback) => {
      // telemetry is not relayed to other clients; a client may only hear its own refusals
      callback(null, sub.topic === `${ERROR_TOPIC_ROOT}/${client.id}` ? sub : null);
    },
    // nothing flows on to subscribers except refusal notices
    authorizeForward: (_client, packet) => (packet.topic.startsWith(`${ERROR_TOPIC_ROOT}/`) ? packet : null),
  });

  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    beginStop: () => {
      stopping = true;
    },
    close: async () => {
      stopping = true;
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
