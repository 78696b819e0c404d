// The exported bundle: the pool file holds exactly our payloads, the k6 script parses and sends them
// (run under a small k6 API shim: k6 itself is not installable here), and the locustfile runs headless
// on real Locust against the local stack with 0 failures and as many requests as the stack stored.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { build, transformSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { writeExportBundle, POOL_FILE_NAME } from "../src/export.ts";
import { presetLayout } from "../src/layoutSource.ts";
import { buildPool, poolCount, poolFromFile, poolPayload } from "../src/pool.ts";
import { runSettingsSchema } from "../src/spec.ts";
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

  it("k6 script parses and posts the pool's bytes with each device's identity", async () => {
    const { dir, settings } = exportFor({ devices: 3 });
    const source = readFileSync(path.join(dir, "k6-script.js"), "utf8");
    expect(() => transformSync(source, { loader: "js", format: "esm" })).not.toThrow();

    // k6's modules, just enough to execute the script's init and default function in node:vm
    const bundled = await build({
      stdin: { contents: source, resolveDir: dir, loader: "js" },
      bundle: true,
      write: false,
      format: "iife",
      globalName: "script",
      plugins: [
        {
          name: "k6-api",
          setup(b) {
            b.onResolve({ filter: /^k6(\/.*)?$/ }, (a) => ({ path: a.path, namespace: "k6" }));
            b.onLoad({ filter: /.*/, namespace: "k6" }, (a) => ({
              contents:
                a.path === "k6/encoding"
                  ? "export default { b64decode: (s) => globalThis.__b64(s) };"
                  : a.path === "k6/http"
                    ? "export default { post: (url, body, params) => globalThis.__posts.push({ url, body, params }) };"
                    : a.path === "k6/execution"
                      ? "export default { get vu() { return { idInTest: globalThis.__vu }; } };"
                      : "export function sleep(s) { globalThis.__slept.push(s); }",
            }));
          },
        },
      ],
    });
    const posts: { url: string; body: ArrayBuffer; params: { headers: Record<string, string> } }[] = [];
    const slept: number[] = [];
    const ctx = {
      __posts: posts,
      __slept: slept,
      __vu: 1,
      __b64: (s: string) => {
        const b = Buffer.from(s, "base64");
        return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
      },
      __ENV: { TARGET: "http://127.0.0.1:8080", SATPAYLOAD_POOL: path.join(dir, POOL_FILE_NAME) },
      open: (p: string) => readFileSync(p, "utf8"),
      Math,
      JSON,
      String,
      Object,
      Date,
      Error,
    } as Record<string, unknown>;
    const script = runInNewContext(`${bundled.outputFiles[0]!.text}; script`, ctx) as {
      default: () => void;
      options: { scenarios: Record<string, { executor: string; stages?: { target: number }[] }> };
    };
    expect(script.options.scenarios.devices!.executor).toBe("ramping-vus");
    expect(script.options.scenarios.devices!.stages!.at(-1)!.target).toBe(3);
    script.default();
    script.default();
    const ours = buildPool(paper.layout, "protobuf", settings.poolSize, settings.seed, true, settings.devices);
    expect(ours.stride).toBe(3);
    expect(posts.length).toBe(2);
    // VU 1 is device 0: its own payloads are 0, 3, 6, … (every one with its identity)
    posts.forEach((p, i) => {
      expect(p.url).toBe("http://127.0.0.1:8080/ingest");
      expect(Buffer.compare(Buffer.from(p.body), Buffer.from(poolPayload(ours, i * 3)))).toBe(0);
      expect(p.params.headers["x-satpayload-device"]).toBe("dev-000000");
      expect(p.params.headers["x-satpayload-format"]).toBe("protobuf");
      expect(p.params.headers["x-satpayload-message-id"]).toMatch(new RegExp(`^k6[0-9a-f]+\\.0\\.${i}\\.\\d+$`));
    });
    for (const s of slept) expect(s >= 0.1 && s <= 0.3).toBe(true);
    expect(slept.length).toBe(2);
  });

  it("the locustfile runs headless on Locust against the local stack: 0 failures, counts equal the stack's", async () => {
    const locust = path.join(repoRoot, ".venv/bin/locust");
    expect(existsSync(locust), "locust is installed by .ci/setup-python.sh").toBe(true);
    stack = await startLocalStack({ replicas: 1, layoutArgs: ["--preset", "paper"] });
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
    expect(await stack.drained(30_000)).toBe(true);
    const after = await stack.stats();
    expect(after.records - before.records).toBe(requests);
    expect(after.rejected - before.rejected).toBe(0);
    expect(after.forwarded - before.forwarded).toBe(requests);
    // each of the 20 users sent its own identity in the record's device field
    expect(after.uniqueDevices).toBe(20);
  }, 150_000);
});
