// The paper's four device clients (Locust HttpUser, octet-stream POST to /container-data, success
// only on HTTP 200; payloads made by cbor2, msgpack, struct+zlib and protoc-generated classes) run
// headless against decoder + embedded CSE, unchanged except the host: 0 failures, and every
// request that Locust counted is one contentInstance in the CSE.
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateProto } from "#codecs";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { cseProcess, m2mGet, paperLayout, spawnDecoder, tempDir, waitFor } from "./support.ts";
import { repoRoot } from "../../shared/launch.ts";

const CLIENTS = path.join(repoRoot, "services/decoder/test/paper-clients");
const LOCUST = path.join(repoRoot, ".venv/bin/locust");

async function runLocust(dir: string, file: string, host: string): Promise<{ code: number | string; stderr: string }> {
  // owned: Locust is stopped after 90 s, or when the test ends first
  return runOwned(
    LOCUST,
    [
      "-f",
      path.join(dir, file),
      "--headless",
      "-u",
      "5",
      "-r",
      "5",
      "-t",
      "3s",
      "--stop-timeout",
      "10",
      "--host",
      host,
      "--json-file",
      path.join(dir, "run"),
      "--only-summary",
      "--loglevel",
      "WARNING",
    ],
    { cwd: dir, timeoutMs: 90_000, env: { ...process.env, PYTHONUNBUFFERED: "1" } },
  );
}

/** contentInstances under the AE, counted from the CSE's own containers (cni) */
async function cinsUnder(cseBase: string, ae: string): Promise<number> {
  const r = await m2mGet(cseBase, `${ae}?fu=1&ty=3`);
  expect(r.status).toBe(200);
  const containers = (r.json as { "m2m:uril"?: string[] })["m2m:uril"] ?? [];
  let n = 0;
  for (const c of containers) {
    const cnt = await m2mGet(cseBase, `${ae}/${c.split("/").at(-1)}`);
    n += (cnt.json as { "m2m:cnt": { cni: number } })["m2m:cnt"].cni;
  }
  return n;
}

describe("the paper's Locust device clients against the stack", () => {
  it("CBOR, MessagePack, Protobuf and Struct+Zlib: 0 failures, every request a cin", async () => {
    expect(existsSync(LOCUST), "locust is installed by .ci/setup-python.sh").toBe(true);
    const dir = tempDir("satpayload-paper-clients-");
    for (const f of readdirSync(CLIENTS)) if (f.endsWith(".py")) copyFileSync(path.join(CLIENTS, f), path.join(dir, f));
    // the paper's struct packing, shared with the struct reference tests
    copyFileSync(path.join(repoRoot, "codecs/reference/ref_struct.py"), path.join(dir, "ref_struct.py"));
    writeFileSync(path.join(dir, "container.proto"), generateProto(paperLayout));
    const cse = await cseProcess(["--port", "0", "--data-dir", tempDir()]);
    for (const [file, format] of [
      ["locust_cbor.py", "cbor"],
      ["locust_msgpack.py", "msgpack"],
      ["locust_protobuf.py", "protobuf"],
      ["locust_struct_zlib.py", "struct-zlib"],
    ] as const) {
      const ae = `paper-${format}`;
      const decoder = await spawnDecoder([
        "--data-dir",
        tempDir(),
        "--preset",
        "paper",
        "--route",
        `/container-data=paper:${format}`,
        "--cse",
        cse.cseBaseUrl,
        "--ae",
        ae,
        "--cse-origin",
        `C${ae}`,
      ]);
      const run = await runLocust(dir, file, decoder.url);
      expect(run.code, `${format}: ${run.stderr.slice(-2000)}`).toBe(0);
      const stats = JSON.parse(readFileSync(path.join(dir, "run.json"), "utf8")) as {
        name: string;
        method: string;
        num_requests: number;
        num_failures: number;
      }[];
      expect(stats.map((s) => `${s.method} ${s.name}`)).toEqual(["POST container-data"]);
      const requests = stats[0]!.num_requests;
      expect(requests, format).toBeGreaterThan(10);
      expect(stats[0]!.num_failures, format).toBe(0);
      const decoded = await waitFor(`${format}: all forwarded`, async () => {
        const s = (await (await fetch(`${decoder.url}/api/stats`)).json()) as {
          records: number;
          forwarded: number;
          backlog: number;
          rejected: number;
        };
        return s.backlog === 0 && s.forwarded === s.records ? s : undefined;
      });
      expect(decoded.records, format).toBe(requests);
      expect(decoded.rejected, format).toBe(0);
      const cins = await cinsUnder(cse.cseBaseUrl, ae);
      expect(cins, format).toBe(requests);
      console.log(
        `paper client ${format}: ${requests} requests, ${stats[0]!.num_failures} failures, ${decoded.records} records, ${cins} cins in the CSE`,
      );
      await decoder.stop();
    }
  }, 300_000);
});
