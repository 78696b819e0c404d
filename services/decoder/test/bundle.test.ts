// The exported deployment bundle as an operator receives it: the folder alone is the build context
// (everything the Dockerfile and the compose file name is inside it), the sources in it run the
// decoder and the CSE with authentication on, and the Kubernetes manifests pass a real schema
// validator in strict mode (kubernetes-validate: the API's schemas, offline; no cluster runs here).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml, parseAllDocuments } from "yaml";
import { presetById } from "#codecs";
import { layoutToText } from "#host/files/layoutFile.ts";
import { packageVersion } from "#services/shared/packageVersion.ts";
import { client, encodedSamples, launchOwned, m2mGet, tempDir, waitFor } from "./support.ts";
import { addKey } from "../../shared/credentials.ts";
import { repoRoot, stopChild } from "../../shared/launch.ts";
import { writeBundle } from "../src/bundle/export.ts";

const VALIDATOR = path.join(repoRoot, ".venv/bin/kubernetes-validate");

function exportTo(dir: string, cseUrl?: string, ingest: { mqttPort?: number; coapPort?: number } = {}) {
  const layout = path.join(tempDir(), "tracker.satlayout.json");
  writeFileSync(layout, layoutToText(presetById("kineis-tracker")!.layout));
  return writeBundle({
    outDir: dir,
    replicas: 3,
    container: "device",
    bodyLimit: 65536,
    cseUrl,
    cseOrigin: "Cdecoder",
    layouts: [layout],
    publicPort: 443,
    repoRoot,
    version: packageVersion(),
    ...ingest,
  });
}

describe("stack export bundle", () => {
  for (const [what, ingest] of [
    ["HTTPS only", {}],
    ["MQTT and CoAP published too", { mqttPort: 18883, coapPort: 15683 }],
  ] as const)
    it(`is a complete build context (${what}): a copy of the folder alone holds everything the Dockerfile and docker-compose.yml reference`, () => {
      const exported = tempDir();
      exportTo(exported, undefined, ingest);
      const copy = path.join(tempDir(), "moved-bundle");
      cpSync(exported, copy, { recursive: true });

      const dockerfile = readFileSync(path.join(copy, "Dockerfile"), "utf8");
      const copies = [...dockerfile.matchAll(/^COPY\s+(.+)$/gm)]
        .map((m) => m[1]!.trim().split(/\s+/).slice(0, -1))
        .flat();
      expect(copies.length).toBeGreaterThanOrEqual(5);
      for (const src of copies) expect(existsSync(path.join(copy, src)), `Dockerfile COPY ${src}`).toBe(true);
      expect(dockerfile).not.toMatch(/\.\.\//);

      const compose = parseYaml(readFileSync(path.join(copy, "docker-compose.yml"), "utf8")) as {
        services: Record<
          string,
          {
            build?: { context: string; dockerfile: string };
            volumes?: string[];
            ports?: string[];
            networks?: string[];
            command?: string[];
          }
        >;
        networks: Record<string, { internal?: boolean } | null>;
      };
      const env = Object.fromEntries(
        readFileSync(path.join(copy, ".env"), "utf8")
          .split("\n")
          .filter((l) => /^[A-Z_]+=/.test(l))
          .map((l) => l.split("=") as [string, string]),
      );
      const expand = (s: string) =>
        s.replace(/\$\{([A-Z_]+):-([^}]*)\}/g, (_, name: string, dflt: string) => env[name] ?? dflt);
      for (const [name, svc] of Object.entries(compose.services)) {
        if (svc.build) {
          expect(svc.build.context, `${name} build context`).toBe(".");
          expect(existsSync(path.join(copy, svc.build.dockerfile))).toBe(true);
        }
        for (const v of svc.volumes ?? []) {
          const host = expand(v).split(":")[0]!;
          if (host.startsWith(".")) expect(existsSync(path.join(copy, host)), `${name} mounts ${host}`).toBe(true);
        }
      }
      // only nginx is published; the CSE is on the internal network alone
      expect(
        Object.entries(compose.services)
          .filter(([, s]) => s.ports?.length)
          .map(([n]) => n),
      ).toEqual(["nginx"]);
      // MQTT (TLS at nginx) and CoAP (UDP) only when asked for, bound as HTTPS is: a port from .env
      const ports = compose.services.nginx!.ports!.map(expand);
      const decoderCommand = compose.services["decoder-1"]!.command!.join(" ");
      if ("mqttPort" in ingest) {
        expect(ports).toEqual(["443:443", "80:80", "18883:8883", "15683:5683/udp"]);
        expect(compose.services.nginx!.volumes).toEqual(
          expect.arrayContaining([
            "./nginx/nginx.conf:/etc/nginx/nginx.conf:ro",
            "./nginx/stream.conf:/etc/nginx/stream.d/ingest.conf:ro",
          ]),
        );
        expect(decoderCommand).toContain("--mqtt-port 1883 --coap-port 5683");
        const stream = readFileSync(path.join(copy, "nginx/stream.conf"), "utf8");
        for (const k of [1, 2, 3]) {
          expect(stream).toContain(`server decoder-${k}:1883 `);
          expect(stream).toContain(`server decoder-${k}:5683;`);
        }
      } else {
        expect(ports).toEqual(["443:443", "80:80"]);
        expect(decoderCommand).not.toMatch(/--mqtt-port|--coap-port/);
        expect(existsSync(path.join(copy, "nginx/stream.conf"))).toBe(false);
      }
      expect(compose.services.cse!.networks).toEqual(["backend"]);
      expect(compose.networks.backend).toEqual({ internal: true });
      // credentials and certificates never enter the image
      expect(readFileSync(path.join(copy, ".dockerignore"), "utf8")).toMatch(/^secrets\/$/m);
      expect(statSync(path.join(copy, "nginx/certs/tls.key")).mode & 0o077).toBe(0);
      expect(statSync(path.join(copy, "secrets/keys.json")).mode & 0o077).toBe(0);
    });

  it(
    "its sources run: the decoder (auth on) and the CSE started from a moved copy store and forward a record",
    { timeout: 120_000 },
    async () => {
      const exported = tempDir();
      exportTo(exported);
      const copy = path.join(tempDir(), "moved-bundle");
      cpSync(exported, copy, { recursive: true });
      // what `npm ci --omit=dev` installs in the image; the sources themselves come only from the copy
      symlinkSync(path.join(repoRoot, "node_modules"), path.join(copy, "src/node_modules"));
      const src = path.join(copy, "src");
      expect(readdirSync(src).sort()).toEqual([
        "bin",
        "codecs",
        "contracts",
        "host",
        "node_modules",
        "package-lock.json",
        "package.json",
        "planning",
        "services",
      ]);

      // owned: stopped when the test ends, also when it fails before its finally or times out
      const cse = await launchOwned(
        path.join(src, "services/cse/main.ts"),
        ["--port", "0", "--data-dir", tempDir()],
        { timeoutMs: 60_000 },
        { name: "cse (bundle)" },
      );
      const cseBase = String(cse.listening.cseBaseUrl);
      const fleet = addKey(path.join(copy, "secrets/keys.json"), { role: "fleet" }).token;
      const decoder = await launchOwned(
        path.join(src, "services/decoder/main.ts"),
        [
          "--port",
          "0",
          "--data-dir",
          tempDir(),
          "--preset",
          "paper",
          "--cse",
          cseBase,
          "--container",
          "shared",
          "--auth",
          "on",
          "--keys",
          path.join(copy, "secrets/keys.json"),
        ],
        { timeoutMs: 60_000 },
        { name: "decoder (bundle)" },
      );
      try {
        const c = client(decoder.listening.url);
        const [msg] = encodedSamples("protobuf", 1, 9);
        const headers = {
          "content-type": "application/x-protobuf",
          "x-satpayload-layout": "paper",
          "x-satpayload-message-id": "from-the-bundle",
        };
        expect((await c.post("/ingest", msg!, headers)).status).toBe(401);
        const ok = await c.post("/ingest", msg!, { ...headers, authorization: `Bearer ${fleet}` });
        expect(ok.status, ok.body).toBe(201);
        // the cin is named by its arrival ULID, its message id in a msgid: label (docs/stack.md); the newest one is this record
        const la = await waitFor(
          "the record in the CSE",
          async () => {
            const r = await m2mGet(cseBase, "decoder/up/la");
            return r.status === 200 ? (r.json as { "m2m:cin": { rn: string; lbl?: string[] } })["m2m:cin"] : undefined;
          },
          30_000,
        );
        expect(la.rn).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
        expect(la.lbl).toEqual(["msgid:from-the-bundle"]);
      } finally {
        await stopChild(decoder.child, decoder.exited);
        await stopChild(cse.child, cse.exited);
      }
    },
  );

  for (const [what, cseUrl, ingest] of [
    ["with the embedded CSE", undefined, {}],
    ["with an external CSE", "http://mobius.internal:7579/Mobius", {}],
    ["with MQTT and CoAP", "http://mobius.internal:7579/Mobius", { mqttPort: 8883, coapPort: 5683 }],
  ] as const) {
    it(`its Kubernetes manifests (${what}) pass kubernetes-validate --strict`, { timeout: 120_000 }, () => {
      if (!existsSync(VALIDATOR))
        throw new Error(`${VALIDATOR} is missing: run bash .ci/setup-python.sh (services/requirements.txt)`);
      const dir = tempDir();
      const { files } = exportTo(dir, cseUrl, ingest);
      const withIngest = "mqttPort" in ingest;
      const manifests = files.filter((f) => f.startsWith("k8s/"));
      const kinds = manifests
        .flatMap((f) =>
          parseAllDocuments(readFileSync(path.join(dir, f), "utf8")).map((d) => (d.toJSON() as { kind: string }).kind),
        )
        .sort();
      expect(kinds).toEqual(
        withIngest
          ? [
              "ConfigMap",
              "HorizontalPodAutoscaler",
              "Ingress",
              "Secret",
              "Service",
              "Service",
              "Service",
              "StatefulSet",
            ]
          : cseUrl
            ? ["ConfigMap", "HorizontalPodAutoscaler", "Ingress", "Secret", "Service", "Service", "StatefulSet"]
            : [
                "ConfigMap",
                "Deployment",
                "HorizontalPodAutoscaler",
                "Ingress",
                "NetworkPolicy",
                "PersistentVolumeClaim",
                "Secret",
                "Service",
                "Service",
                "Service",
                "StatefulSet",
              ],
      );
      const run = spawnSync(VALIDATOR, ["--strict", ...manifests], { cwd: dir, encoding: "utf8" });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).not.toMatch(/ERROR|did not validate/);
      expect(run.stdout.match(/passed for resource/g)?.length).toBe(kinds.length);
      // one volume per replica for its SQLite buffer, kept when scaled down
      const sts = parseYaml(readFileSync(path.join(dir, "k8s/decoder-statefulset.yaml"), "utf8")) as {
        spec: {
          volumeClaimTemplates: unknown[];
          persistentVolumeClaimRetentionPolicy: { whenScaled: string };
          template: { spec: { containers: { args: string[] }[] } };
        };
      };
      expect(sts.spec.volumeClaimTemplates).toHaveLength(1);
      expect(sts.spec.persistentVolumeClaimRetentionPolicy.whenScaled).toBe("Retain");
      expect(sts.spec.template.spec.containers[0]!.args.join(" ")).toContain("--auth on");
      const services = parseAllDocuments(readFileSync(path.join(dir, "k8s/decoder-services.yaml"), "utf8")).map(
        (d) =>
          d.toJSON() as {
            metadata: { name: string };
            spec: {
              type?: string;
              sessionAffinity?: string;
              ports: { name: string; port: number; protocol?: string }[];
            };
          },
      );
      const ingestService = services.find((s) => s.metadata.name === "decoder-ingest");
      if (withIngest) {
        expect(ingestService?.spec).toMatchObject({
          type: "LoadBalancer",
          sessionAffinity: "ClientIP",
          ports: [
            { name: "mqtt", port: 8883, protocol: "TCP" },
            { name: "coap", port: 5683, protocol: "UDP" },
          ],
        });
        expect(sts.spec.template.spec.containers[0]!.args.join(" ")).toContain("--mqtt-port 1883 --coap-port 5683");
      } else expect(ingestService).toBeUndefined();
    });
  }
});
