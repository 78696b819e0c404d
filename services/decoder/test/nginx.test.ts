// The exported nginx config in front of 2 decoder replicas, with Debian's nginx: the bundle's server
// blocks (upstream hosts, ports and certificate directory rewritten to loopback and the bundle)
// serve TLS with the generated pair, redirect plain HTTP, balance authenticated ingest over both
// replicas, pass the read API and the event stream, and keep accepting when a replica goes down. No Docker engine here: the
// replicas are local processes sharing one buffer directory, as the containers share one volume.
import { readFileSync, writeFileSync } from "node:fs";
import https from "node:https";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { packageVersion } from "#services/shared/packageVersion.ts";
import { client, cseProcess, encodedSamples, m2mGet, spawnBufferReplicas, tempDir, waitFor } from "./support.ts";
import { addKey } from "../../shared/credentials.ts";
import { repoRoot } from "../../shared/launch.ts";
import { freePort } from "../../shared/ports.ts";
import { httpTempPaths, startNginx } from "../../test-support/nginx.ts";
import { writeBundle } from "../src/bundle/export.ts";

describe("nginx from the exported bundle", () => {
  it(
    "serves TLS with the generated pair, redirects plain HTTP, balances authenticated ingest over 2 replicas (least_conn), serves aggregated stats and events, and survives a replica going down",
    { timeout: 180_000 },
    async () => {
      const bundle = tempDir();
      const { tlsProblem } = writeBundle({
        outDir: bundle,
        replicas: 2,
        container: "shared",
        bodyLimit: 65536,
        cseUrl: undefined,
        cseOrigin: "Cdecoder",
        layouts: [],
        publicPort: 443,
        repoRoot,
        version: packageVersion(),
      });
      expect(tlsProblem).toBeUndefined();
      const exported = readFileSync(path.join(bundle, "nginx/decoder.conf"), "utf8");
      const ca = readFileSync(path.join(bundle, "nginx/certs/tls.crt"), "utf8");
      // the replicas run as the bundle runs them: authentication on, client address from nginx
      const keys = path.join(bundle, "secrets/keys.json");
      const fleet = addKey(keys, { role: "fleet" }).token;
      const reader = addKey(keys, { role: "reader" }).token;
      const readAuth = { authorization: `Bearer ${reader}` };

      const cse = await cseProcess(["--port", "0", "--data-dir", tempDir()]);
      const replicas = await spawnBufferReplicas(2, [
        "--preset",
        "paper",
        "--cse",
        cse.cseBaseUrl,
        "--container",
        "shared",
        "--auth",
        "on",
        "--keys",
        keys,
        "--trust-proxy",
      ]);

      // the exported server blocks, only upstream addresses, listen ports and the certificates' directory changed
      const port = await freePort();
      const plainPort = await freePort();
      expect(exported).toContain("listen 443 ssl;");
      expect(exported).toContain("listen 80;");
      let conf = exported
        .replace("listen 443 ssl;", `listen 127.0.0.1:${port} ssl;`)
        .replace("listen 80;", `listen 127.0.0.1:${plainPort};`)
        .replaceAll("/etc/nginx/certs/", `${bundle}/nginx/certs/`);
      for (let k = 0; k < 2; k++)
        conf = conf.replace(`server decoder-${k + 1}:8080`, `server 127.0.0.1:${new URL(replicas[k]!.url).port}`);
      expect(conf).not.toMatch(/decoder-\d:8080/);
      const prefix = tempDir();
      writeFileSync(path.join(prefix, "decoder.conf"), conf);
      // stopped, workers and all, when this test ends however it ends
      const nginx = startNginx({
        prefix,
        blocks: ["http {", "  access_log off;", ...httpTempPaths(prefix), `  include ${prefix}/decoder.conf;`, "}"],
      });
      const front = `https://127.0.0.1:${port}`;
      const plain = `http://127.0.0.1:${plainPort}`;
      await waitFor("nginx answering", async () => (await fetch(`${plain}/nginx-health`)).ok || undefined, 20_000);

      // plain HTTP only redirects; HTTPS verifies against the generated certificate and sends HSTS
      const redirected = await client(plain).post("/ingest", "x", { "content-type": "application/x-protobuf" });
      expect(redirected.status).toBe(301);
      expect(redirected.headers.location).toBe("https://127.0.0.1/ingest");
      const c = client(front, 16, ca);
      const health = await c.get("/nginx-health");
      expect(health.status).toBe(200);
      expect(health.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      await expect(client(front, 1).get("/nginx-health")).rejects.toThrow(/self-signed|certificate/);
      // through nginx, too, no key: 401 and nothing stored
      expect(
        (await c.post("/ingest", "x", { "content-type": "application/x-protobuf", "x-satpayload-layout": "paper" }))
          .status,
      ).toBe(401);
      expect((await c.get("/api/stats")).status).toBe(401);

      const N = 400;
      const bodies = encodedSamples("protobuf", N, 51);
      const perBuffer = [0, 0];
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < N) {
            const i = next++;
            const r = await c.post("/ingest", bodies[i]!, {
              "content-type": "application/x-protobuf",
              "x-satpayload-layout": "paper",
              "x-satpayload-message-id": `ng-${i}`,
              authorization: `Bearer ${fleet}`,
            });
            expect(r.status, r.body).toBe(201);
            perBuffer[JSON.parse(r.body).buffer as number]!++;
          }
        }),
      );
      // both replicas took a fair share
      expect(perBuffer[0]! + perBuffer[1]!).toBe(N);
      expect(Math.min(...perBuffer)).toBeGreaterThan(N / 4);

      // any replica answers for both buffers: the stats through nginx cover the whole deployment
      const stats = await waitFor("all forwarded, seen through nginx", async () => {
        const s = JSON.parse((await c.get("/api/stats", readAuth)).body);
        return s.forwarded === N ? s : undefined;
      });
      expect(stats.records).toBe(N);
      expect(stats.buffers.map((b: { records: number }) => b.records)).toEqual(perBuffer);
      const cnt = await m2mGet(cse.cseBaseUrl, "decoder/up");
      expect((cnt.json as { "m2m:cnt": { cni: number } })["m2m:cnt"].cni).toBe(N);

      // the event stream passes through unbuffered
      const frame = await new Promise<string>((resolve, reject) => {
        const req = https.get(`${front}/api/events`, { ca, headers: readAuth }, (res) => {
          res.setEncoding("utf8");
          let buf = "";
          res.on("data", (d: string) => {
            buf += d;
            const m = /event: stats\ndata: .+\n\n/.exec(buf);
            if (m) {
              req.destroy();
              resolve(m[0]);
            }
          });
        });
        req.on("error", reject);
        setTimeout(() => reject(new Error("no stats event through nginx")), 10_000);
      });
      expect(JSON.parse(frame.split("data: ")[1]!).records).toBe(N);

      // one replica stops: nginx sends everything to the other
      await replicas[1]!.stop();
      for (let i = 0; i < 50; i++) {
        const r = await c.post("/ingest", bodies[i]!, {
          "content-type": "application/x-protobuf",
          "x-satpayload-layout": "paper",
          "x-satpayload-message-id": `after-${i}`,
          authorization: `Bearer ${fleet}`,
        });
        expect(r.status, r.body).toBe(201);
        expect(JSON.parse(r.body).buffer).toBe(0);
      }
      c.close();
      expect(nginx.stderr()).not.toMatch(/\[(emerg|alert|crit)\]/);
      // `-s quit` ends the master and its workers: nothing of nginx's process group is left
      await nginx.stop();
      expect(nginx.running()).toBe(false);
    },
  );
});
