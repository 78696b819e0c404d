// The deployment bundle of the paper's topology: nginx (least_conn) in front of N decoder replicas
// and the CSE, as docker-compose.yml, the nginx server block and the image's Dockerfile.
import type { ContainerMode } from "../config.ts";
import { IMAGE_SOURCES } from "./sources.ts";
import { envelopeLimit } from "../server.ts";

export interface BundleOptions {
  replicas: number;
  container: ContainerMode;
  bodyLimit: number;
  /** an external CSE (Mobius/ACME base URL); undefined: the embedded CSE runs as a service */
  cseUrl: string | undefined;
  cseOrigin: string;
  /** layout files copied into layouts/, by file name */
  layoutFiles: string[];
  /** the HTTPS port nginx publishes (plain HTTP on HTTP_PORT only redirects to it) */
  publicPort: number;
  /** MQTT over TLS (nginx terminates it) published on this port; undefined: no MQTT ingest */
  mqttPort?: number | undefined;
  /** CoAP (UDP) published on this port; undefined: no CoAP ingest */
  coapPort?: number | undefined;
  version: string;
}

export const DECODER_PORT = 8080;
/** the decoders' own MQTT and CoAP ports inside the deployment (the published ones are the operator's) */
export const DECODER_MQTT_PORT = 1883;
export const DECODER_COAP_PORT = 5683;
/** where nginx terminates MQTT's TLS inside its container */
export const NGINX_MQTTS_PORT = 8883;
/** where the compose file mounts the stream server blocks (MQTT, CoAP) in the nginx container */
export const NGINX_STREAM_DIR = "/etc/nginx/stream.d";
/** MQTT or CoAP asked for: nginx needs its stream context */
export const streamWanted = (o: Pick<BundleOptions, "mqttPort" | "coapPort">) =>
  o.mqttPort !== undefined || o.coapPort !== undefined;
export const CSE_PORT = 7579;
export const UPSTREAM = "satpayload_decoders";

export const decoderHost = (k: number) => `decoder-${k}`;
/** where nginx finds the certificate pair inside its container (the compose file mounts it there) */
export const NGINX_CERT_DIR = "/etc/nginx/certs";
/** where the decoders find the credentials file (a directory mount, so a replaced file is seen) */
export const KEYS_MOUNT = "/secrets/keys.json";

/** the decoder arguments every deployment shares; auth is on and the client address comes from the proxy */
export function decoderArgs(
  o: Pick<BundleOptions, "container" | "bodyLimit" | "cseOrigin" | "layoutFiles" | "mqttPort" | "coapPort">,
  cse: string,
): string[] {
  return [
    "--host",
    "0.0.0.0",
    "--port",
    String(DECODER_PORT),
    "--cse",
    cse,
    "--cse-origin",
    o.cseOrigin,
    "--container",
    o.container,
    "--body-limit",
    String(o.bodyLimit),
    "--auth",
    "on",
    "--keys",
    KEYS_MOUNT,
    "--trust-proxy",
    ...(o.mqttPort !== undefined ? ["--mqtt-port", String(DECODER_MQTT_PORT)] : []),
    ...(o.coapPort !== undefined ? ["--coap-port", String(DECODER_COAP_PORT)] : []),
    "--preset",
    "all",
    ...o.layoutFiles.flatMap((f) => ["--layout", `/layouts/${f}`]),
  ];
}

/** The proxy settings and locations the TLS server serves (the decoders' whole API). */
function proxyLocations(): string {
  return `    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_connect_timeout 5s;
    proxy_read_timeout 30s;

    location / {
        proxy_pass http://${UPSTREAM};
    }

    # Server-Sent Events: pass every event at once and keep the stream open
    location = /api/events {
        proxy_pass http://${UPSTREAM};
        proxy_buffering off;
        proxy_cache off;
        proxy_read_timeout 1h;
    }`;
}

/**
 * The http-context part nginx needs (mounted as conf.d/default.conf); `upstreams` are host:port.
 * TLS terminates here; plain HTTP only answers the health probe and redirects everything else.
 */
export function renderNginx(o: Pick<BundleOptions, "bodyLimit">, upstreams: string[]): string {
  return `# SatPayload Studio: nginx in front of the decoder replicas (the paper's topology).
# least_conn sends each request to the replica with the fewest active connections.
upstream ${UPSTREAM} {
    least_conn;
${upstreams.map((u) => `    server ${u} max_fails=3 fail_timeout=10s;`).join("\n")}
    keepalive 64;
}

# plain HTTP: nothing but a redirect to HTTPS (and the load balancer's own health answer)
server {
    listen 80;
    location = /nginx-health {
        access_log off;
        default_type text/plain;
        return 200 "ok\\n";
    }
    location / {
        return 301 https://$host$request_uri;
    }
}

server {
    listen 443 ssl;
    ssl_certificate ${NGINX_CERT_DIR}/tls.crt;
    ssl_certificate_key ${NGINX_CERT_DIR}/tls.key;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:satpayload_tls:10m;
    ssl_session_timeout 1h;
    add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;
    # a base64 envelope of the largest accepted payload, plus its JSON fields
    client_max_body_size ${envelopeLimit(o.bodyLimit)};

${proxyLocations()}

    location = /nginx-health {
        access_log off;
        default_type text/plain;
        return 200 "ok\\n";
    }
}
`;
}

function yamlList(items: string[], indent: string): string {
  return items.map((i) => `${indent}- ${JSON.stringify(i)}`).join("\n");
}

export function renderCompose(o: BundleOptions): string {
  const cse = o.cseUrl ?? `http://cse:${CSE_PORT}/Mobius`;
  const image = `satpayload-studio:${o.version}`;
  const decoders = Array.from({ length: o.replicas }, (_, i) => {
    const args = [
      "node",
      "--import",
      "tsx",
      "services/decoder/main.ts",
      ...decoderArgs(o, cse),
      "--data-dir",
      "/data",
      // all replicas share the buffers volume, each writing its own file, so any of them reports stats for all
      "--buffer-index",
      String(i),
      "--buffer-total",
      String(o.replicas),
      "--instance",
      decoderHost(i + 1),
    ];
    return `  ${decoderHost(i + 1)}:
    image: ${image}
    build: *build
    command:
${yamlList(args, "      ")}
    volumes:
      - buffers:/data
      - ./secrets:${KEYS_MOUNT.slice(0, KEYS_MOUNT.lastIndexOf("/"))}:ro
${o.layoutFiles.length ? "      - ./layouts:/layouts:ro\n" : ""}    networks: [edge, backend]
    restart: unless-stopped
${o.cseUrl ? "" : "    depends_on:\n      - cse\n"}    healthcheck:
      test: ["CMD", "node", "-e", "fetch('http://127.0.0.1:${DECODER_PORT}/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
      interval: 10s
      timeout: 3s
      retries: 3`;
  });
  const cseService = o.cseUrl
    ? ""
    : `  # the CSE is reachable only from the decoders (backend is an internal network): never published
  cse:
    image: ${image}
    build: *build
    command:
${yamlList(["node", "--import", "tsx", "services/cse/main.ts", "--host", "0.0.0.0", "--port", String(CSE_PORT), "--data-dir", "/data"], "      ")}
    volumes:
      - cse-data:/data
    networks: [backend]
    restart: unless-stopped

`;
  return `# SatPayload Studio stack: nginx (TLS, least_conn) → ${o.replicas} decoder replica(s) → ${o.cseUrl ? `the CSE at ${o.cseUrl}` : "the embedded CSE (point --cse at a real Mobius/ACME for production)"}.
# Build and start from this directory (it is the whole build context):  docker compose up -d --build
# Device keys: satpayload stack keys add --keys secrets/keys.json --device ID  (README.md)
name: satpayload-stack

# every service of our image names the build, so "up --build" never tries to pull it (one build, cached)
x-build: &build
  context: .
  dockerfile: Dockerfile

services:
  nginx:
    image: nginx:1.27-alpine
    ports:
      - "\${HTTPS_PORT:-${o.publicPort}}:443"
      - "\${HTTP_PORT:-80}:80"
${
  o.mqttPort !== undefined
    ? `      - "\${MQTT_PORT:-${o.mqttPort}}:${NGINX_MQTTS_PORT}"
`
    : ""
}${
    o.coapPort !== undefined
      ? `      - "\${COAP_PORT:-${o.coapPort}}:${DECODER_COAP_PORT}/udp"
`
      : ""
  }    volumes:
      - ./nginx/decoder.conf:/etc/nginx/conf.d/default.conf:ro
${
  streamWanted(o)
    ? `      - ./nginx/nginx.conf:/etc/nginx/nginx.conf:ro
      - ./nginx/stream.conf:${NGINX_STREAM_DIR}/ingest.conf:ro
`
    : ""
}      - \${TLS_CERT:-./nginx/certs/tls.crt}:${NGINX_CERT_DIR}/tls.crt:ro
      - \${TLS_KEY:-./nginx/certs/tls.key}:${NGINX_CERT_DIR}/tls.key:ro
    networks: [edge]
    depends_on:
${Array.from({ length: o.replicas }, (_, i) => `      - ${decoderHost(i + 1)}`).join("\n")}
    restart: unless-stopped

${cseService}${decoders.join("\n\n")}

networks:
  edge: {}
  backend:
    internal: true

volumes:
  buffers:
${o.cseUrl ? "" : "  cse-data:\n"}`;
}

/** compose reads it from the bundle folder: the ports and certificate paths a deployment changes */
export function renderEnv(o: Pick<BundleOptions, "publicPort" | "mqttPort" | "coapPort">): string {
  return `# docker compose reads this file; change the values for your deployment.
HTTPS_PORT=${o.publicPort}
HTTP_PORT=80
${o.mqttPort !== undefined ? `# MQTT over TLS (mqtts://), the same certificate as HTTPS\nMQTT_PORT=${o.mqttPort}\n` : ""}${o.coapPort !== undefined ? `# CoAP over UDP (plain: nginx has no DTLS)\nCOAP_PORT=${o.coapPort}\n` : ""}# the certificate pair nginx serves; the generated one is self-signed (localhost) for a first run
TLS_CERT=./nginx/certs/tls.crt
TLS_KEY=./nginx/certs/tls.key
`;
}

export function renderDockerfile(o: Pick<BundleOptions, "version">): string {
  return `# The SatPayload Studio services image (decoder and embedded CSE), version ${o.version}.
# Build context: this bundle folder; src/ holds the sources it runs.
FROM node:20-bookworm-slim
WORKDIR /app
# better-sqlite3 falls back to compiling when no prebuilt binary matches
RUN apt-get update \\
 && apt-get install -y --no-install-recommends python3 make g++ \\
 && rm -rf /var/lib/apt/lists/*
COPY src/package.json src/package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \\
 && npm rebuild better-sqlite3 \\
 && npm cache clean --force
${IMAGE_SOURCES.filter((x) => !x.includes("."))
  .map((d) => `COPY src/${d} ./${d}`)
  .join("\n")}
RUN mkdir -p /data && chown node:node /data
USER node
ENV NODE_ENV=production
EXPOSE ${DECODER_PORT} ${CSE_PORT}
VOLUME ["/data"]
CMD ["node", "--import", "tsx", "services/decoder/main.ts", "--host", "0.0.0.0", "--port", "${DECODER_PORT}", "--data-dir", "/data", "--auth", "on", "--keys", "${KEYS_MOUNT}"]
`;
}

export function renderReadme(o: BundleOptions, tls: { generated: boolean; command: string }): string {
  return `# SatPayload Studio stack bundle

The paper's topology (Kumar et al., Telecom 2026): nginx with \`least_conn\` and TLS in front of
${o.replicas} decoder replica(s), forwarding decoded records as oneM2M contentInstances to
${o.cseUrl ? `the CSE at \`${o.cseUrl}\`` : "the embedded CSE (a Mobius-compatible subset; point the decoders' `--cse` at a real Mobius or ACME for production)"}.
This folder is the whole build context: copy it to the server and run \`docker compose up -d --build\`.

| file | what |
|---|---|
| \`docker-compose.yml\` | the services; the \`buffers\` volume all decoder replicas share${o.cseUrl ? "" : ", the CSE's \`cse-data\` volume"}; networks \`edge\` (nginx, decoders) and \`backend\` (internal: decoders${o.cseUrl ? "" : ", CSE"}) |
| \`.env\` | published ports and the certificate paths (\`HTTPS_PORT\`, \`HTTP_PORT\`, \`TLS_CERT\`, \`TLS_KEY\`) |
| \`nginx/decoder.conf\` | the nginx server blocks: HTTPS with HSTS, plain HTTP redirected to HTTPS |
| \`nginx/certs/\` | ${tls.generated ? "a **self-signed** pair for localhost, generated for a first run: replace it (or point `TLS_CERT`/`TLS_KEY` at the real one) before devices connect" : `**empty**: openssl was not available at export; make a pair with \`cd nginx/certs && ${tls.command}\` or point \`TLS_CERT\`/\`TLS_KEY\` at the real one`} |
| \`secrets/keys.json\` | device, fleet and reader keys (hashes only) and webhook secrets; owner-only |
| \`Dockerfile\`, \`src/\` | the image the decoder${o.cseUrl ? "" : " and CSE"} run from, and the sources it is built from |
| \`k8s/\` | the same deployment for Kubernetes (see below) |
${o.layoutFiles.length ? "| `layouts/` | the layout files the decoders load (`--layout`) |\n" : ""}
## Credentials

Every decoder runs with \`--auth on\`: a record needs a device or fleet key
(\`Authorization: Bearer <key>\` or \`X-Satpayload-Key\`), the read API (\`/api/stats\`,
\`/api/latest\`, \`/api/events\`) a reader key, a portal callback an HMAC-SHA256 of its body
(\`X-Satpayload-Signature: sha256=<hex>\`). Without credentials: 401; wrong ones: 403; a source
that keeps being refused: 429. A device key writes only its own device's records.

    satpayload stack keys add --keys secrets/keys.json --device C-0001     # prints the key once
    satpayload stack keys add --keys secrets/keys.json --reader --label dashboard
    satpayload stack keys add --keys secrets/keys.json --webhook /astrocast-callback
    satpayload stack keys list --keys secrets/keys.json
    satpayload stack keys revoke <id> --keys secrets/keys.json

The decoders re-read the file within a second of a change (the directory is mounted, so a replaced
file is seen).

## Sending

    curl --cacert nginx/certs/tls.crt -H "Authorization: Bearer $KEY" -H 'Content-Type: application/x-protobuf' \\
         -H 'X-Satpayload-Layout: paper' --data-binary @msg.bin https://localhost:${o.publicPort}/ingest

${
  o.mqttPort !== undefined
    ? `MQTT over TLS (nginx terminates it with the same certificate; the key is the password):

    mosquitto_pub -h localhost -p ${o.mqttPort} --cafile nginx/certs/tls.crt -u device -P "$KEY" -q 1 \\
         -t satpayload/-/paper/protobuf/<message id> -f msg.bin

`
    : ""
}${
    o.coapPort !== undefined
      ? `CoAP over UDP (plain: nginx has no DTLS, so the key travels in clear; a trusted network only):

    coap-client-notls -m post -t 42 -O 15,key=$KEY -f msg.bin "coap://localhost:${o.coapPort}/ingest?layout=paper&format=protobuf"

`
      : ""
  }Each replica writes its own SQLite buffer in the shared volume (SQLite allows one writer per file);
any replica reads all of them, so \`/api/stats\` through nginx covers the whole deployment. Keep
the volume on a local disk: SQLite's WAL needs shared memory, which network filesystems do not give.

## Kubernetes

\`k8s/\` holds the same deployment for a cluster: the decoders as a StatefulSet with one volume per
replica (each pod's own SQLite buffer, kept when it is scaled down so no acknowledged record is
lost), a Service, an Ingress with TLS, a HorizontalPodAutoscaler, the keys as a Secret${o.cseUrl ? "" : ", and the CSE as its own Deployment that only the decoders may reach (NetworkPolicy)"}.
Push the image (\`docker build -t <registry>/satpayload-studio:${o.version} .\`), set the image, the
Ingress host and the TLS secret, then:

    kubectl create secret generic satpayload-keys --from-file=keys.json=secrets/keys.json
    kubectl create secret tls satpayload-tls --cert=<cert> --key=<key>
    kubectl apply -f k8s/
`;
}
