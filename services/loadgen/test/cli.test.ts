// `satpayload loadtest` as users script it: the --json summary, the export bundle, usage errors.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { loadTestResultSchema } from "#contracts/loadtest/result.ts";
import { startStub, type Stub } from "./stub.ts";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
let stub: Stub;
const dirs: string[] = [];
beforeAll(async () => {
  stub = await startStub({ latencyMs: () => 3 });
});
afterAll(async () => {
  await stub.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // owned: stopped with tsx's node child after 90 s, or when its test ends first
  const r = await runOwned(path.join(repoRoot, "node_modules/.bin/tsx"), ["bin/satpayload.ts", "loadtest", ...args], {
    cwd: repoRoot,
    timeoutMs: 90_000,
  });
  return { code: typeof r.code === "number" ? r.code : 1, stdout: r.stdout, stderr: r.stderr };
}

describe("satpayload loadtest", () => {
  it("runs against a URL and prints a machine-readable summary", async () => {
    const r = await cli([
      "--preset",
      "paper",
      "--format",
      "struct-zlib",
      "--url",
      stub.url,
      "--devices",
      "8",
      "--wait",
      "const:0.05",
      "--duration",
      "1.5",
      "--warmup",
      "0.5",
      "--pool-size",
      "100",
      "--json",
      "--quiet",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const result = loadTestResultSchema.parse(JSON.parse(r.stdout));
    expect(result.status).toBe("completed");
    expect(result.settings).toMatchObject({
      format: "struct-zlib",
      devices: 8,
      wait: { kind: "constant", seconds: 0.05 },
      target: { kind: "url", url: stub.url },
    });
    expect(result.requests.measured).toBeGreaterThan(50);
    expect(result.requests.measuredFailed).toBe(0);
    expect(result.server).toBeNull();
    expect(stub.received).toBe(result.requests.sent);
  }, 60_000);

  it("exports the Locust/k6 bundle", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), "satpayload-loadtest-cli-"));
    dirs.push(out);
    const r = await cli([
      "export",
      "--out",
      out,
      "--preset",
      "kineis-tracker",
      "--format",
      "bitpacked",
      "--devices",
      "50",
      "--url",
      "http://decoder.example:8080/ingest",
      "--pool-size",
      "20",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["README.md", "k6-script.js", "locustfile.py", "payload-pool.json"]);
    expect(
      r.stdout
        .trim()
        .split("\n")
        .every((f) => existsSync(f)),
    ).toBe(true);
  }, 60_000);

  it("refuses bad usage with exit code 2 and a reason", async () => {
    const cases: [string[], RegExp][] = [
      [["--preset", "paper"], /--format is required/],
      [["--preset", "paper", "--format", "protobuf", "--wait", "3"], /--wait takes MIN,MAX/],
      [["--preset", "paper", "--format", "protobuf", "--mode", "open"], /arrivalRate: open mode needs arrivalRate/],
      [
        ["--preset", "paper", "--format", "protobuf", "--url", "http://x/ingest", "--replicas", "2"],
        /exclude each other/,
      ],
      [
        ["--preset", "paper", "--format", "protobuf", "--url", "http://x/ingest", "--transport", "mqtt"],
        /transport: an ingest URL takes HTTP only/,
      ],
      [
        ["export", "--out", "/tmp/never", "--preset", "paper", "--format", "protobuf", "--transport", "coap"],
        /loadtest export sends over HTTP/,
      ],
      [["frobnicate"], /unknown loadtest subcommand/],
      [["--preset", "nope", "--format", "protobuf", "--url", "http://x/ingest"], /unknown preset "nope"/],
    ];
    for (const [args, why] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(why);
    }
  }, 90_000);
});
