// The exported bundle: the pool file holds exactly our payloads; the k6 script runs under real k6
// (built once by .ci/prepare-tests.sh): against a capturing server each VU posts its own device's
// payloads in order with its identity and think time, and against the local stack every request is
// stored and forwarded; the locustfile runs headless on real Locust against the local stack with 0
// failures and as many requests as the stack stored.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { runSettingsSchema } from "#contracts/loadtest/spec.ts";
import { ensureK6 } from "./k6Tool.ts";
import { writeExportBundle, POOL_FILE_NAME } from "../src/export.ts";
import { presetLayout } from "../src/layoutSource.ts";
import { buildPool, poolCount, poolFromFile, poolPayload } from "../src/pool.ts";
import { startLocalStack, type LocalStack } from "../src/stack.ts";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const dirs: string[] = [];
let stack: LocalStack | undefined;
afterAll(async () => {
  await stack?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), "satpayload-loadgen-export-"));
  dirs.push(d);
  return d;
}

const paper = presetLayout("paper");

interface Captured {
  path: string;
  device: string;
  format: string;
  messageId: string;
  body: Buffer;
  /** ms on this process's clock: request complete, answer sent */
  at: number;
  answeredAt: number;
}

/** An ingest endpoint that keeps every request and answers 201 at once. */
async function captureServer(): Promise<{ url: string; requests: Captured[]; close(): Promise<void> }> {
  const requests: Captured[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = performance.now();
      // read before the answer goes out: the client cannot have it earlier, so its think time is a lower bound of
      // the gap to its next request however late this process runs (read after, a busy machine's scheduling
      // delay between the two showed as a think time of 96.6 ms)
      const answeredAt = performance.now();
      res.writeHead(201, { "content-type": "application/json", "content-length": 2 });
      res.end("{}");
      requests.push({
        path: req.url ?? "",
        device: String(req.headers["x-satpayload-device"]),
        format: String(req.headers["x-satpayload-format"]),
        messageId: String(req.headers["x-satpayload-message-id"]),
        body: Buffer.concat(chunks),
        at,
        answeredAt,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The stack stored and forwarded exactly `requests` more records, refused none, and has seen the 20
 * devices (each simulated device sends its own identity in the record's device field; the k6 and
 * Locust runs use the same 20).
 */
async function expectStoredAndForwarded(before: Awaited<ReturnType<LocalStack["stats"]>>, requests: number) {
  expect(await stack!.drained(30_000)).toBe(true);
  const after = await stack!.stats();
  expect(after.records - before.records).toBe(requests);
  expect(after.rejected - before.rejected).toBe(0);
  expect(after.forwarded - before.forwarded).toBe(requests);
  expect(after.uniqueDevices).toBe(20);
}

interface K6Summary {
  metrics: Record<string, { count?: number; value?: number } | undefined>;
}

/** `k6 run` of the bundle's script against `target`, its end-of-test summary as JSON. */
async function runK6(
  k6: string,
  dir: string,
  target: string,
): Promise<{ code: number | string; stderr: string; summary: K6Summary }> {
  const summaryFile = path.join(dir, "k6-summary.json");
  // owned: k6 is stopped after 90 s, or when the test ends first
  const { code, stderr } = await runOwned(
    k6,
    [
      "run",
      "--quiet",
      "--no-color",
      "--no-usage-report",
      "--summary-export",
      summaryFile,
      "-e",
      `TARGET=${target}`,
      "k6-script.js",
    ],
    { cwd: dir, timeoutMs: 90_000, env: { ...process.env, K6_NO_USAGE_REPORT: "true" } },
  );
  const summary = existsSync(summaryFile)
    ? (JSON.parse(readFileSync(summaryFile, "utf8")) as K6Summary)
    : { metrics: {} };
  return { code, stderr, summary };
}

function exportFor(over: Record<string, unknown> = {}) {
  const settings = runSettingsSchema.parse({
    format: "protobuf",
    devices: 20,
    poolSize: 300,
    durationSeconds: 4,
    wait: { kind: "uniform", min: 0.1, max: 0.3 },
    target: { kind: "url", url: "http://127.0.0.1:9/ingest" },
    ...over,
  });
  const dir = tempDir();
  writeExportBundle(dir, paper, settings);
  return { dir, settings };
}

describe("export bundle", () => {
  it("writes a pool file byte-identical to the generator's pool", () => {
    for (const format of ["protobuf", "struct-zlib", "cbor"] as const) {
      const { dir, settings } = exportFor({ format });
      const { file, payloads } = poolFromFile(JSON.parse(readFileSync(path.join(dir, POOL_FILE_NAME), "utf8")));
      const ours = buildPool(paper.layout, format, settings.poolSize, settings.seed, true, settings.devices);
      expect(payloads.length).toBe(poolCount(ours));
      // the paper's record names its device (iso6346): each of the 20 devices has its own payloads
      expect(file.stride).toBe(20);
      payloads.forEach((p, i) =>
        expect(Buffer.compare(Buffer.from(p), Buffer.from(poolPayload(ours, i))), `${format} payload ${i}`).toBe(0),
      );
      expect(file.headers["x-satpayload-format"]).toBe(format);
      expect(file.headers["x-satpayload-layout"]).toBe("paper");
      for (const f of ["locustfile.py", "k6-script.js", "README.md"]) expect(existsSync(path.join(dir, f))).toBe(true);
    }
  });

  it("k6 runs the script: each VU posts its own device's payloads in order, with its identity and think time", async () => {
    const k6 = ensureK6();
    const { dir, settings } = exportFor({ devices: 3, durationSeconds: 2 });
    const capture = await captureServer();
    const run = await runK6(k6, dir, capture.url);
    await capture.close();
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const metrics = run.summary.metrics;
    expect(metrics.http_reqs!.count).toBe(capture.requests.length);
    expect(metrics.http_req_failed!.value).toBe(0);

    const ours = buildPool(paper.layout, "protobuf", settings.poolSize, settings.seed, true, settings.devices);
    expect(ours.stride).toBe(3);
    const n = poolCount(ours);
    const byDevice = new Map<string, Captured[]>();
    for (const r of capture.requests) byDevice.set(r.device, [...(byDevice.get(r.device) ?? []), r]);
    expect([...byDevice.keys()].sort()).toEqual(["dev-000000", "dev-000001", "dev-000002"]);
    for (const [device, requests] of byDevice) {
      const d = Number(device.slice(4));
      expect(requests.length, device).toBeGreaterThan(1);
      requests.forEach((r, k) => {
        expect(r.path).toBe("/ingest");
        expect(r.format).toBe("protobuf");
        // run tag . device . its own counter . send time
        expect(r.messageId, device).toMatch(new RegExp(`^k6[0-9a-f]+\\.${d}\\.${k}\\.\\d+$`));
        // device d sends payloads d, d + 3, d + 6, … of the pool: each carries its identity
        expect(
          Buffer.compare(r.body, Buffer.from(poolPayload(ours, (d + k * ours.stride) % n))),
          `${device} #${k}`,
        ).toBe(0);
        // after each answer the VU sleeps U(0.1, 0.3) s before the next: a lower bound only
        if (k > 0) expect(r.at - requests[k - 1]!.answeredAt, `${device} #${k}`).toBeGreaterThanOrEqual(99);
      });
    }
  }, 120_000);

  it("k6 against the local stack: 0 failed, every request stored and forwarded, each VU its own device", async () => {
    const k6 = ensureK6();
    stack ??= await startLocalStack({ replicas: 1, layoutArgs: ["--preset", "paper"] });
    const before = await stack.stats();
    const { dir } = exportFor({ devices: 20, durationSeconds: 3 });
    const run = await runK6(k6, dir, stack.decoderUrl);
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const requests = run.summary.metrics.http_reqs!.count ?? 0;
    expect(requests).toBeGreaterThan(20);
    expect(run.summary.metrics.http_req_failed!.value).toBe(0);
    await expectStoredAndForwarded(before, requests);
  }, 150_000);

  it("the locustfile runs headless on Locust against the local stack: 0 failures, counts equal the stack's", async () => {
    const locust = path.join(repoRoot, ".venv/bin/locust");
    expect(existsSync(locust), "locust is installed by .ci/setup-python.sh").toBe(true);
    stack ??= await startLocalStack({ replicas: 1, layoutArgs: ["--preset", "paper"] });
    const before = await stack.stats();
    const { dir } = exportFor({ format: "struct-zlib", devices: 20 });
    const prefix = path.join(dir, "run");
    // owned: Locust is stopped after 90 s, or when the test ends first
    const out = await runOwned(
      locust,
      [
        "-f",
        path.join(dir, "locustfile.py"),
        "--headless",
        "-u",
        "20",
        "-r",
        "20",
        "-t",
        "4s",
        "--stop-timeout",
        "10",
        "--host",
        stack!.decoderUrl,
        "--json-file",
        prefix,
        "--only-summary",
        "--loglevel",
        "WARNING",
      ],
      { cwd: dir, timeoutMs: 90_000, env: { ...process.env, PYTHONUNBUFFERED: "1" } },
    );
    expect(out.code, out.stderr.slice(-2000)).toBe(0);
    // the final stats (Locust's CSV files are written periodically and may miss the last second)
    const stats = JSON.parse(readFileSync(`${prefix}.json`, "utf8")) as {
      name: string;
      num_requests: number;
      num_failures: number;
    }[];
    const requests = stats.reduce((n, s) => n + s.num_requests, 0);
    const failures = stats.reduce((n, s) => n + s.num_failures, 0);
    expect(stats.map((s) => s.name)).toEqual(["ingest"]);
    expect(requests).toBeGreaterThan(50);
    expect(failures).toBe(0);
    await expectStoredAndForwarded(before, requests);
  }, 150_000);
});
