// MQTT and CoAP through the exported bundle's nginx, with Debian's nginx and its stream module: the
// bundle's stream blocks (decoder hosts, listen ports and the certificate directory rewritten to
// loopback and the bundle) in front of 2 authenticated decoders. mosquitto_pub publishes over TLS
// verified against the generated certificate and gets its PUBACK; libcoap's coap-client POSTs over
// UDP and gets the decoder's 2.01; both records are stored. No Docker engine here: the replicas are
// local processes sharing one buffer directory, as the containers share one volume.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { cseProcess, encodedSamples, spawnBufferReplicas, tempDir, waitFor } from "./support.ts";
import { addKey } from "../../shared/credentials.ts";
import { repoRoot } from "../../shared/launch.ts";
import { freePort, freeUdpPort } from "../../shared/ports.ts";
import { NGINX, startNginx } from "../../test-support/nginx.ts";
import { writeBundle } from "../src/bundle/export.ts";

const STREAM_MODULE = "/usr/lib/nginx/modules/ngx_stream_module.so";

// owned: a client still running after 30 s, or when the test ends, is stopped
const run = async (cmd: string, args: string[]) => {
  const r = await runOwned(cmd, args, { timeoutMs: 30_000 });
  return { code: r.code === 0 ? 0 : 1, out: r.stdout + r.stderr };
};

describe("nginx stream blocks from the exported bundle", () => {
  it(
    "carry MQTT over TLS (PUBACK after the store) and CoAP over UDP (2.01) to authenticated decoders",
    { timeout: 180_000 },
    async () => {
      for (const f of [NGINX, STREAM_MODULE])
        if (!existsSync(f))
          throw new Error(`${f} is missing: install Debian's nginx and libnginx-mod-stream (.ci/system-packages.txt)`);
      const bundle = tempDir();
      const { files, tlsProblem } = writeBundle({
        outDir: bundle,
        replicas: 2,
        container: "shared",
        bodyLimit: 65536,
        cseUrl: undefined,
        cseOrigin: "Cdecoder",
        layouts: [],
        publicPort: 443,
        mqttPort: 8883,
        coapPort: 5683,
        repoRoot,
        version: "test",
      });
      expect(tlsProblem).toBeUndefined();
      expect(files).toEqual(expect.arrayContaining(["nginx/nginx.conf", "nginx/stream.conf"]));
      const exported = readFileSync(path.join(bundle, "nginx/stream.conf"), "utf8");
      // the main file opens the stream context the compose file mounts the blocks into
      expect(readFileSync(path.join(bundle, "nginx/nginx.conf"), "utf8")).toMatch(
        /stream \{\s+include \/etc\/nginx\/stream\.d\/\*\.conf;\s+\}/,
      );
      const keys = path.join(bundle, "secrets/keys.json");
      const fleet = addKey(keys, { role: "fleet" }).token;

      const cse = await cseProcess(["--port", "0", "--data-dir", tempDir()]);
      const replicas = await spawnBufferReplicas(2, [
        "--preset",
        "paper",
        "--cse",
        cse.cseBaseUrl,
        "--auth",
        "on",
        "--keys",
        keys,
        "--mqtt-port",
        "0",
        "--coap-port",
        "0",
      ]);
      const portOf = (u: unknown) => new URL(String(u)).port;

      // only listen ports, upstream addresses and the certificates' directory changed
      const mqttsPort = await freePort();
      const coapPort = await freeUdpPort();
      expect(exported).toContain("listen 8883 ssl;");
      expect(exported).toContain("listen 5683 udp;");
      let conf = exported
        .replace("listen 8883 ssl;", `listen 127.0.0.1:${mqttsPort} ssl;`)
        .replace("listen 5683 udp;", `listen 127.0.0.1:${coapPort} udp;`)
        .replaceAll("/etc/nginx/certs/", `${bundle}/nginx/certs/`);
      for (let k = 0; k < 2; k++) {
        conf = conf.replace(
          `server decoder-${k + 1}:1883 `,
          `server 127.0.0.1:${portOf(replicas[k]!.listening.mqtt)} `,
        );
        conf = conf.replace(
          `server decoder-${k + 1}:5683;`,
          `server 127.0.0.1:${portOf(replicas[k]!.listening.coap)};`,
        );
      }
      expect(conf).not.toMatch(/decoder-\d:/);
      const prefix = tempDir();
      writeFileSync(path.join(prefix, "stream.conf"), conf);
      mkdirSync(path.join(prefix, "logs"), { recursive: true });
      // stopped, workers and all, when this test ends however it ends
      const nginx = startNginx({
        prefix,
        modules: [`load_module ${STREAM_MODULE};`],
        blocks: [`stream { include ${prefix}/stream.conf; }`],
      });

      const [a, b] = encodedSamples("protobuf", 2, 77);
      const cbor = encodedSamples("cbor", 1, 78)[0]!;
      const dir = tempDir();
      writeFileSync(path.join(dir, "a.pb"), a!);
      writeFileSync(path.join(dir, "b.pb"), b!);
      writeFileSync(path.join(dir, "c.cbor"), cbor);
      const ca = path.join(bundle, "nginx/certs/tls.crt");
      const pub = (file: string, id: string, password = fleet) =>
        run("mosquitto_pub", [
          "-h",
          "127.0.0.1",
          "-p",
          String(mqttsPort),
          "--cafile",
          ca,
          "-u",
          "fleet",
          "-P",
          password,
          "-q",
          "1",
          "-d",
          "-t",
          `satpayload/-/paper/protobuf/${id}`,
          "-f",
          path.join(dir, file),
        ]);
      // nginx may still be starting: the first publish is retried until its TLS handshake succeeds
      const first = await waitFor(
        "MQTT over TLS through nginx",
        async () => {
          const r = await pub("a.pb", "via-mqtts");
          return r.out.includes("received PUBACK") ? r : undefined;
        },
        20_000,
        500,
      ).catch((e: Error) => {
        throw new Error(`${e.message}\nnginx: ${nginx.stderr()}`);
      });
      expect(first.out).toContain("received CONNACK (0)");
      // a wrong key is refused at CONNECT through nginx as it is directly (CONNACK 5: not authorized)
      expect((await pub("b.pb", "wrong-key", "not-a-key")).out).toMatch(/CONNACK \(5\)|not authori[sz]ed/i);

      const post = await run("coap-client-notls", [
        "-m",
        "post",
        "-t",
        "60",
        "-O",
        `15,key=${fleet}`,
        "-f",
        path.join(dir, "c.cbor"),
        `coap://127.0.0.1:${coapPort}/ingest?layout=paper&id=via-coap`,
      ]);
      expect(JSON.parse(post.out.trim())).toMatchObject({ messageId: "via-coap", duplicate: false });

      // both stored, read straight from the decoders (any replica reads every buffer)
      const reader = addKey(keys, { role: "reader" }).token;
      const stats = await waitFor(
        "both records stored",
        async () => {
          const r = await fetch(`${replicas[0]!.url}/api/stats`, { headers: { authorization: `Bearer ${reader}` } });
          const body = (await r.json()) as { records: number };
          return body.records === 2 ? body : undefined;
        },
        20_000,
      );
      expect(stats.records).toBe(2);
      // `-s quit` ends the master and its workers (the MQTT sessions end within worker_shutdown_timeout)
      await nginx.stop();
      expect(nginx.running()).toBe(false);
    },
  );
});
