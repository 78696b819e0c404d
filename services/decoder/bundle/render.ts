// The deployment bundle of the paper's topology: nginx (least_conn) in front of N decoder replicas
// and the CSE, as docker-compose.yml, the nginx server block and the image's Dockerfile.
import type { ContainerMode } from "../config.ts";
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
  /** the port nginx publishes */
  publicPort: number;
  /** the image's build context, relative to the bundle: a checkout of SatPayload Studio */
  buildContext: string;
  /** the bundle's Dockerfile, relative to the build context (compose resolves it from there) */
  dockerfile: string;
  version: string;
}

export const DECODER_PORT = 8080;
export const CSE_PORT = 7579;
export const UPSTREAM = "satpayload_decoders";

export const decoderHost = (k: number) => `decoder-${k}`;

/** The http-context part nginx needs (mounted as conf.d/default.conf); `upstreams` are host:port. */
export function renderNginx(o: Pick<BundleOptions, "bodyLimit">, upstreams: string[], listen: string | number = 80): string {
  return `# SatPayload Studio: nginx in front of the decoder replicas (the paper's topology).
# least_conn sends each request to the replica with the fewest active connections.
upstream ${UPSTREAM} {
    least_conn;
${upstreams.map((u) => `    server ${u} max_fails=3 fail_timeout=10s;`).join("\n")}
    keepalive 64;
}

server {
    listen ${listen};
    # a base64 envelope of the largest accepted payload, plus its JSON fields
    client_max_body_size ${envelopeLimit(o.bodyLimit)};

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
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
    }

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
  const layoutArgs = o.layoutFiles.flatMap((f) => ["--layout", `/layouts/${f}`]);
  const decoders = Array.from({ length: o.replicas }, (_, i) => {
    const args = [
      "node", "--import", "tsx", "services/decoder/main.ts",
      "--host", "0.0.0.0", "--port", String(DECODER_PORT),
      "--data-dir", "/data",
      // all replicas share the buffers volume, each writing its own file, so any of them reports stats for all
      "--buffer-index", String(i), "--buffer-total", String(o.replicas),
      "--cse", cse, "--cse-origin", o.cseOrigin,
      "--container", o.container,
      "--body-limit", String(o.bodyLimit),
      "--instance", decoderHost(i + 1),
      "--preset", "all", ...layoutArgs,
    ];
    return `  ${decoderHost(i + 1)}:
    image: ${image}
    build: *build
    command:
${yamlList(args, "      ")}
    volumes:
      - buffers:/data
${o.layoutFiles.length ? "      - ./layouts:/layouts:ro\n" : ""}    restart: unless-stopped
${o.cseUrl ? "" : "    depends_on:\n      - cse\n"}    healthcheck:
      test: ["CMD", "node", "-e", "fetch('http://127.0.0.1:${DECODER_PORT}/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
      interval: 10s
      timeout: 3s
      retries: 3`;
  });
  const cseService = o.cseUrl
    ? ""
    : `  cse:
    image: ${image}
    build: *build
    command:
${yamlList(["node", "--import", "tsx", "services/cse/main.ts", "--host", "0.0.0.0", "--port", String(CSE_PORT), "--data-dir", "/data"], "      ")}
    volumes:
      - cse-data:/data
    ports:
      - "127.0.0.1:${CSE_PORT}:${CSE_PORT}"
    restart: unless-stopped

`;
  return `# SatPayload Studio stack: nginx (least_conn) → ${o.replicas} decoder replica(s) → ${o.cseUrl ? `the CSE at ${o.cseUrl}` : "the embedded CSE (point --cse at a real Mobius/ACME for production)"}.
# Build and start from this directory:  docker compose up -d --build
# Ingest:  curl -X POST --data-binary @msg.bin -H 'Content-Type: application/x-protobuf' -H 'X-Satpayload-Layout: paper' http://127.0.0.1:${o.publicPort}/ingest
name: satpayload-stack

# every service of our image names the build, so "up --build" never tries to pull it (one build, cached)
x-build: &build
  context: ${JSON.stringify(o.buildContext)}
  dockerfile: ${JSON.stringify(o.dockerfile)}

services:
  nginx:
    image: nginx:1.27-alpine
    ports:
      - "${o.publicPort}:80"
    volumes:
      - ./nginx/decoder.conf:/etc/nginx/conf.d/default.conf:ro
    depends_on:
${Array.from({ length: o.replicas }, (_, i) => `      - ${decoderHost(i + 1)}`).join("\n")}
    restart: unless-stopped

${cseService}${decoders.join("\n\n")}

volumes:
  buffers:
${o.cseUrl ? "" : "  cse-data:\n"}`;
}

export function renderDockerfile(o: Pick<BundleOptions, "version">): string {
  return `# The SatPayload Studio services image (decoder and embedded CSE), version ${o.version}.
# Build context: a checkout of SatPayload Studio (docker-compose.yml points at it).
FROM node:20-bookworm-slim
WORKDIR /app
# better-sqlite3 falls back to compiling when no prebuilt binary matches
RUN apt-get update \\
 && apt-get install -y --no-install-recommends python3 make g++ \\
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \\
 && npm rebuild better-sqlite3 \\
 && npm cache clean --force
COPY codecs ./codecs
COPY services ./services
COPY host ./host
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
ENV NODE_ENV=production
EXPOSE ${DECODER_PORT} ${CSE_PORT}
VOLUME ["/data"]
CMD ["node", "--import", "tsx", "services/decoder/main.ts", "--host", "0.0.0.0", "--port", "${DECODER_PORT}", "--data-dir", "/data"]
`;
}

export function renderReadme(o: BundleOptions): string {
  return `# SatPayload Studio stack bundle

The paper's topology (Kumar et al., Telecom 2026): nginx with \`least_conn\` in front of
${o.replicas} decoder replica(s), forwarding decoded records as oneM2M contentInstances to
${o.cseUrl ? `the CSE at \`${o.cseUrl}\`` : "the embedded CSE (a Mobius-compatible subset; point the decoders' `--cse` at a real Mobius or ACME for production)"}.

| file | what |
|---|---|
| \`docker-compose.yml\` | the services, the \`buffers\` volume all decoder replicas share${o.cseUrl ? "" : " and the CSE's \`cse-data\` volume"} |
| \`nginx/decoder.conf\` | the nginx server block (mounted as \`/etc/nginx/conf.d/default.conf\`) |
| \`Dockerfile\` | the image the decoder${o.cseUrl ? "" : " and CSE"} run from (built from the checkout at \`${o.buildContext}\`) |
${o.layoutFiles.length ? "| `layouts/` | the layout files the decoders load (`--layout`) |\n" : ""}
Start: \`docker compose up -d --build\`, then send to \`http://127.0.0.1:${o.publicPort}/ingest\`
(headers \`X-Satpayload-Layout\` and \`Content-Type\` or \`X-Satpayload-Format\`). Live numbers:
\`/api/stats\`, \`/api/latest\`, \`/api/events\` through the same port.

Each replica writes its own SQLite buffer in the shared volume (SQLite allows one writer per file);
any replica reads all of them, so \`/api/stats\` through nginx covers the whole deployment. Keep
the volume on a local disk: SQLite's WAL needs shared memory, which network filesystems do not give.
`;
}
