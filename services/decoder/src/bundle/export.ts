// Writes the deployment bundle into a directory: compose + nginx (TLS) + Dockerfile with the sources
// it builds from, the credentials file, Kubernetes manifests. Every file temp + rename, src/ renamed
// into place whole, layouts checked first. The folder alone is the build context.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { renderManifests } from "./kubernetes.ts";
import {
  renderCompose,
  renderDockerfile,
  renderEnv,
  renderNginx,
  renderReadme,
  decoderHost,
  streamWanted,
  DECODER_COAP_PORT,
  DECODER_MQTT_PORT,
  DECODER_PORT,
  type BundleOptions,
} from "./render.ts";
import { copyImageSources } from "./sources.ts";
import { renderNginxMain, renderNginxStream } from "./stream.ts";
import { selfSignedCommand, writeSelfSigned } from "./tls.ts";
import { writeFileAtomic } from "../../../shared/atomicWrite.ts";
import { readKeysFile, writeKeysFile } from "../../../shared/credentials.ts";
import { loadLayout } from "../../../shared/loadLayout.ts";

export interface ExportRequest extends Omit<BundleOptions, "layoutFiles"> {
  outDir: string;
  /** absolute paths of layout files to ship */
  layouts: string[];
  /** the checkout whose sources the image is built from */
  repoRoot: string;
}

export interface ExportResult {
  files: string[];
  /** why the bundle has no certificate pair yet, with the command that makes one */
  tlsProblem: string | undefined;
}

export function writeBundle(r: ExportRequest): ExportResult {
  const out = path.resolve(r.outDir);
  const names: string[] = [];
  for (const file of r.layouts) {
    // a broken layout fails here, not in a container at 3 a.m.
    loadLayout({ layout: file });
    const name = path.basename(file);
    if (names.includes(name)) throw new Error(`two layouts are named ${name}`);
    names.push(name);
  }
  const o: BundleOptions = { ...r, layoutFiles: names };
  const written: string[] = [];

  // credentials: an existing file (a re-export) keeps its keys; a new bundle starts with none
  const keysFile = path.join(out, "secrets", "keys.json");
  writeKeysFile(keysFile, readKeysFile(keysFile));
  written.push("secrets/keys.json");

  const certDir = path.join(out, "nginx", "certs");
  let tlsProblem: string | undefined;
  if (!existsSync(path.join(certDir, "tls.crt"))) {
    const made = writeSelfSigned(certDir);
    if (made.ok) written.push("nginx/certs/tls.crt", "nginx/certs/tls.key");
    else
      tlsProblem = `${made.reason}; make the pair with: cd ${path.join(r.outDir, "nginx", "certs")} && ${made.command}`;
  }
  const tls = { generated: tlsProblem === undefined, command: selfSignedCommand(".").join(" ") };

  const layouts: [string, string][] = r.layouts.map((f, i) => [names[i]!, readFileSync(f, "utf8")]);
  const decoderHosts = Array.from({ length: r.replicas }, (_, i) => decoderHost(i + 1));
  const stream: [string, string][] = streamWanted(o)
    ? [
        ["nginx/nginx.conf", renderNginxMain()],
        [
          "nginx/stream.conf",
          renderNginxStream(
            o.mqttPort !== undefined ? decoderHosts.map((h) => `${h}:${DECODER_MQTT_PORT}`) : [],
            o.coapPort !== undefined ? decoderHosts.map((h) => `${h}:${DECODER_COAP_PORT}`) : [],
          ),
        ],
      ]
    : [];
  const files: [string, string][] = [
    ["docker-compose.yml", renderCompose(o)],
    [".env", renderEnv(o)],
    [
      "nginx/decoder.conf",
      renderNginx(
        o,
        decoderHosts.map((h) => `${h}:${DECODER_PORT}`),
      ),
    ],
    ...stream,
    ["Dockerfile", renderDockerfile(o)],
    [
      ".dockerignore",
      "# the image needs only src/: keep credentials and certificates out of the build context\nsecrets/\nnginx/\nk8s/\n",
    ],
    ["README.md", renderReadme(o, tls)],
    ...renderManifests({ ...o, keysJson: readFileSync(keysFile, "utf8"), layouts }),
    ...layouts.map(([name, text]): [string, string] => [`layouts/${name}`, text]),
  ];
  for (const [rel, text] of files) {
    writeFileAtomic(path.join(out, rel), text);
    written.push(rel);
  }
  written.push(...copyImageSources(r.repoRoot, out));
  return { files: written, tlsProblem };
}
