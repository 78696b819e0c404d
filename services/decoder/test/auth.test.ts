// Device and reader authentication on a real decoder process (--auth on): no key → 401 and nothing
// stored; a device key writes only its own device's records; reader endpoints need a reader key;
// refusals are counted, rate-limited per source, and revocation takes effect while running.
import { createHmac } from "node:crypto";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { client, encodedSamples, spawnDecoder, tempDir, waitFor } from "./support.ts";
import { addKey, addWebhook, listKeys, readKeysFile, revoke } from "../../shared/credentials.ts";
import { AuthGuard } from "../src/auth/guard.ts";
import { parseDecoderArgs } from "../src/config.ts";
import { IngestError } from "../src/errors.ts";

const PB = { "content-type": "application/x-protobuf", "x-satpayload-layout": "paper" };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("decoder with --auth on", () => {
  it(
    "refuses writers and readers without the right key, stores nothing for them, and binds device keys to their device",
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      const keys = path.join(dir, "keys.json");
      const fleet = addKey(keys, { role: "fleet", label: "test fleet" }).token;
      const reader = addKey(keys, { role: "reader" }).token;
      const d = await spawnDecoder([
        "--data-dir",
        dir,
        "--preset",
        "paper",
        "--auth",
        "on",
        "--trust-proxy",
        "--auth-refusals",
        "1000",
        "--commit-ms",
        "1",
      ]);
      const c = client(d.url);
      const [own, other] = encodedSamples("protobuf", 2, 77);
      const stats = async () =>
        JSON.parse((await c.get("/api/stats", bearer(reader))).body) as {
          records: number;
          deadLetters: number;
          auth: { unauthenticated: number; forbidden: number };
        };

      // no credentials: 401 with a challenge; a malformed or unknown key: 403; a reader key cannot write
      const none = await c.post("/ingest", own!, PB);
      expect(none.status, none.body).toBe(401);
      expect(none.headers["www-authenticate"]).toBe('Bearer realm="satpayload"');
      expect(JSON.parse(none.body)).toMatchObject({ error: "unauthenticated" });
      expect((await c.post("/ingest", own!, { ...PB, ...bearer("spk_000000000000_" + "A".repeat(43)) })).status).toBe(
        403,
      );
      expect((await c.post("/ingest", own!, { ...PB, "x-satpayload-key": "not-a-key" })).status).toBe(403);
      expect(
        (
          await c.post("/ingest/base64", JSON.stringify({ data: Buffer.from(own!).toString("base64") }), {
            "content-type": "application/json",
            "x-satpayload-layout": "paper",
            "x-satpayload-format": "protobuf",
            ...bearer(reader),
          })
        ).status,
      ).toBe(403);
      const before = await stats();
      expect(before.records).toBe(0);
      expect(before.deadLetters).toBe(0);
      expect(before.auth.unauthenticated).toBe(1);
      expect(before.auth.forbidden).toBe(3);

      // a fleet key writes any device's records
      const a = await c.post("/ingest", own!, { ...PB, ...bearer(fleet) });
      expect(a.status, a.body).toBe(201);
      const b = await c.post("/ingest", other!, { ...PB, ...bearer(fleet) });
      expect(b.status, b.body).toBe(201);
      const ownDevice = JSON.parse(a.body).device as string;
      const otherDevice = JSON.parse(b.body).device as string;
      expect(ownDevice).not.toBe(otherDevice);

      // a device key, added while the decoder runs: its own device yes, another device's record no
      const device = addKey(keys, { role: "device", device: ownDevice });
      const [own2, other2] = encodedSamples("protobuf", 2, 77).map((x) => x);
      await waitFor(
        "the new device key",
        async () =>
          (await c.post("/ingest", own2!, { ...PB, ...bearer(device.token), "x-satpayload-message-id": "own-1" }))
            .status === 201 || undefined,
        10_000,
        200,
      );
      const foreign = await c.post("/ingest", other2!, {
        ...PB,
        ...bearer(device.token),
        "x-satpayload-message-id": "foreign-1",
      });
      expect(foreign.status, foreign.body).toBe(403);
      expect(JSON.parse(foreign.body).reason).toContain(`writes for device "${ownDevice}", not "${otherDevice}"`);
      expect((await stats()).records).toBe(3);
      const latest = JSON.parse((await c.get("/api/latest?limit=10", bearer(reader))).body) as {
        records: { messageId: string }[];
      };
      expect(latest.records.map((r) => r.messageId)).not.toContain("foreign-1");

      // readers: no key 401, a device key 403, a reader key 200; the event stream too
      expect((await c.get("/api/latest")).status).toBe(401);
      expect((await c.get("/api/stats", bearer(device.token))).status).toBe(403);
      expect((await c.get("/api/dead-letters", bearer(fleet))).status).toBe(403);
      expect((await c.get("/api/layouts", bearer(reader))).status).toBe(200);
      const events = await fetch(`${d.url}/api/events`);
      expect(events.status).toBe(401);
      await events.body?.cancel();
      // health stays open for load balancers and probes, and says authentication is on
      expect(JSON.parse((await c.get("/health")).body)).toMatchObject({ status: "ok", auth: "on" });

      // revoked while running: refused within the watcher's second
      expect(revoke(keys, device.id)).toBe(true);
      await waitFor(
        "the revocation",
        async () => (await c.post("/ingest", own2!, { ...PB, ...bearer(device.token) })).status === 403 || undefined,
        10_000,
        200,
      );
      expect(listKeys(keys).find((k) => k.id === device.id)?.revoked).not.toBeNull();
      // only hashes are on disk
      expect(JSON.stringify(readKeysFile(keys))).not.toContain(device.token.slice(18));
    },
  );

  it(
    "answers 429 to a source that keeps being refused, whatever it presents, and other sources are not affected",
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      const fleet = addKey(path.join(dir, "keys.json"), { role: "fleet" }).token;
      const d = await spawnDecoder([
        "--data-dir",
        dir,
        "--preset",
        "paper",
        "--auth",
        "on",
        "--trust-proxy",
        "--auth-refusals",
        "3",
      ]);
      const c = client(d.url);
      const [msg] = encodedSamples("protobuf", 1, 5);
      const from = (ip: string) => ({ "x-forwarded-for": `203.0.113.9, ${ip}` });
      for (let i = 0; i < 3; i++)
        expect((await c.post("/ingest", msg!, { ...PB, ...from("198.51.100.7") })).status).toBe(401);
      const limited = await c.post("/ingest", msg!, { ...PB, ...from("198.51.100.7"), ...bearer(fleet) });
      expect(limited.status, limited.body).toBe(429);
      expect(limited.headers["retry-after"]).toBeDefined();
      expect((await c.post("/ingest", msg!, { ...PB, ...from("198.51.100.8"), ...bearer(fleet) })).status).toBe(201);
    },
  );

  it("is on by default off loopback (auto on loopback), and refuses to serve unauthenticated there unless told to", () => {
    const dir = tempDir();
    expect(parseDecoderArgs(["--data-dir", dir, "--host", "0.0.0.0"]).auth.mode).toBe("on");
    expect(parseDecoderArgs(["--data-dir", dir]).auth.mode).toBe("auto");
    expect(() => parseDecoderArgs(["--data-dir", dir, "--host", "0.0.0.0", "--auth", "auto"])).toThrow(/refusing/);
    expect(() => parseDecoderArgs(["--data-dir", dir, "--host", "0.0.0.0", "--auth", "off"])).toThrow(
      /refusing to accept records and serve telemetry without authentication on 0\.0\.0\.0/,
    );
    expect(
      parseDecoderArgs(["--data-dir", dir, "--host", "0.0.0.0", "--auth", "off", "--allow-unauthenticated"]).auth.mode,
    ).toBe("off");
    expect(parseDecoderArgs(["--data-dir", dir]).auth.keysFile).toBe(path.join(dir, "keys.json"));
  });
});

describe("decoder with the loopback default (--auth auto)", () => {
  it(
    "stays open until the first writer key exists, then needs keys to write; reads stay open to this machine",
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      const keys = path.join(dir, "keys.json");
      addKey(keys, { role: "reader" });
      const d = await spawnDecoder(["--data-dir", dir, "--preset", "paper"]);
      const c = client(d.url);
      const [msg] = encodedSamples("protobuf", 1, 3);
      // a reader key alone changes nothing for writers
      expect((await c.post("/ingest", msg!, PB)).status).toBe(201);
      const fleet = addKey(keys, { role: "fleet" }).token;
      await waitFor(
        "writes needing a key",
        async () => (await c.post("/ingest", msg!, PB)).status === 401 || undefined,
        10_000,
        200,
      );
      expect((await c.post("/ingest", msg!, { ...PB, ...bearer(fleet) })).status).toBe(201);
      expect((await c.get("/api/stats")).status).toBe(200);
      expect(JSON.parse((await c.get("/health")).body)).toMatchObject({ auth: "auto" });
    },
  );
});

describe("Astrocast-style callbacks with --auth on", () => {
  it(
    "accept a body signed with the route's webhook secret, refuse unsigned, wrongly signed and altered ones with 401, and take a fleet key instead",
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      const keys = path.join(dir, "keys.json");
      const { secret } = addWebhook(keys, { route: "/astrocast-callback" });
      const fleet = addKey(keys, { role: "fleet" }).token;
      const d = await spawnDecoder(["--data-dir", dir, "--preset", "paper", "--auth", "on", "--auth-refusals", "1000"]);
      const c = client(d.url);
      const [msg] = encodedSamples("protobuf", 1, 12);
      const push = (guid: string) =>
        JSON.stringify({ data: Buffer.from(msg!).toString("base64"), guid, sequenceNumber: 1 });
      const JSON_TYPE = { "content-type": "application/json" };
      const sign = (body: string, key = secret) => ({
        "x-satpayload-signature": `sha256=${createHmac("sha256", key).update(body).digest("hex")}`,
      });

      const good = push("dev-a");
      const ok = await c.post("/astrocast-callback", good, { ...JSON_TYPE, ...sign(good) });
      expect(ok.status, ok.body).toBe(200);
      expect((await c.post("/astrocast-callback", push("dev-b"), JSON_TYPE)).status).toBe(401);
      expect(
        (
          await c.post("/astrocast-callback", push("dev-c"), {
            ...JSON_TYPE,
            ...sign(push("dev-c"), "a guessed secret of some length 0123456789"),
          })
        ).status,
      ).toBe(401);
      // the signature of one body does not carry another
      expect((await c.post("/astrocast-callback", push("dev-d"), { ...JSON_TYPE, ...sign(good) })).status).toBe(401);
      const keyed = await c.post("/astrocast-callback", push("dev-e"), {
        ...JSON_TYPE,
        authorization: `Bearer ${fleet}`,
      });
      expect(keyed.status, keyed.body).toBe(200);
      const reader = addKey(keys, { role: "reader" }).token;
      await waitFor(
        "the reader key",
        async () => (await c.get("/api/stats", bearer(reader))).status === 200 || undefined,
        10_000,
        200,
      );
      const stats = JSON.parse((await c.get("/api/stats", bearer(reader))).body) as {
        records: number;
        auth: { unauthenticated: number };
      };
      expect(stats.records).toBe(2);
      expect(stats.auth.unauthenticated).toBe(3);
    },
  );
});

describe("webhook signatures", () => {
  const fakeRequest = (headers: Record<string, string>): IncomingMessage =>
    ({ headers, socket: { remoteAddress: "127.0.0.1" } }) as unknown as IncomingMessage;
  const dir = tempDir();
  const keysFile = path.join(dir, "keys.json");
  const { secret } = addWebhook(keysFile, { route: "/astrocast-callback" });
  const guard = new AuthGuard({ mode: "on", keysFile, trustProxy: false, refusalsPerMinute: 1000 });
  const body = new TextEncoder().encode(JSON.stringify({ data: "AQID", guid: "dev-1" }));
  const sign = (key: string, bytes: Uint8Array) => `sha256=${createHmac("sha256", key).update(bytes).digest("hex")}`;
  const refusal = (f: () => void) => {
    try {
      f();
    } catch (e) {
      if (e instanceof IngestError) return e.status;
      throw e;
    }
    return 200;
  };

  it("accepts the HMAC-SHA256 of the body with the route's secret", () => {
    expect(
      refusal(() =>
        guard.webhook(fakeRequest({ "x-satpayload-signature": sign(secret, body) }), "/astrocast-callback", body),
      ),
    ).toBe(200);
  });
  it("answers 401 to a missing signature, a wrong secret, another route's secret or a changed body", () => {
    expect(refusal(() => guard.webhook(fakeRequest({}), "/astrocast-callback", body))).toBe(401);
    expect(
      refusal(() =>
        guard.webhook(
          fakeRequest({ "x-satpayload-signature": sign("not the secret", body) }),
          "/astrocast-callback",
          body,
        ),
      ),
    ).toBe(401);
    expect(
      refusal(() =>
        guard.webhook(fakeRequest({ "x-satpayload-signature": sign(secret, body) }), "/container-data", body),
      ),
    ).toBe(401);
    const changed = Uint8Array.from(body);
    changed[5] = changed[5]! ^ 1;
    expect(
      refusal(() =>
        guard.webhook(fakeRequest({ "x-satpayload-signature": sign(secret, body) }), "/astrocast-callback", changed),
      ),
    ).toBe(401);
    expect(guard.counters.unauthenticated).toBe(4);
  });
});
