// Four Locust device clients written from the paper's description (not the paper's own code:
// paper-clients/; HttpUser, octet-stream POST to /container-data, success only on HTTP 200;
// payloads made by cbor2, msgpack, struct+zlib and the class protoc generates from a container.proto
// written by hand from the paper) run headless against decoder + embedded CSE: 0 failures, every
// request Locust counted is one contentInstance, and every stored `con` equals, field by field, the
// record the client says it sent (built by Python: the text record, or for the typed formats its
// numbers as the float32s sent).
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { cseProcess, m2mGet, spawnDecoder, tempDir, waitFor } from "./support.ts";
import { repoRoot } from "../../shared/launch.ts";

const CLIENTS = path.join(repoRoot, "services/decoder/test/paper-clients");
const LOCUST = path.join(repoRoot, ".venv/bin/locust");

async function runLocust(
  dir: string,
  file: string,
  host: string,
  sentFile: string,
): Promise<{ code: number | string; stderr: string }> {
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
    { cwd: dir, timeoutMs: 90_000, env: { ...process.env, PYTHONUNBUFFERED: "1", SATPAYLOAD_SENT_FILE: sentFile } },
  );
}

type Fields = Record<string, string>;

/** Every contentInstance under the AE with its `con`, read from the CSE (rcn=4: each container with its children). */
async function storedUnder(cseBase: string, ae: string): Promise<{ cni: number; cons: Fields[] }> {
  const r = await m2mGet(cseBase, `${ae}?fu=1&ty=3`);
  expect(r.status).toBe(200);
  const containers = (r.json as { "m2m:uril"?: string[] })["m2m:uril"] ?? [];
  let cni = 0;
  const cons: Fields[] = [];
  for (const c of containers) {
    const cnt = await m2mGet(cseBase, `${ae}/${c.split("/").at(-1)}?rcn=4`);
    expect(cnt.status).toBe(200);
    const body = (cnt.json as { "m2m:cnt": { cni: number; "m2m:cin"?: { con: Fields }[] } })["m2m:cnt"];
    cni += body.cni;
    for (const cin of body["m2m:cin"] ?? []) cons.push(cin.con);
  }
  return { cni, cons };
}

/** a record's identity: the device's MSISDN and the reading's time (unique in each device's readings) */
const identity = (r: Fields) => `${r.msisdn} ${r.time}`;

describe("Locust device clients written from the paper's description, against the stack", () => {
  it("CBOR, MessagePack, Protobuf and Struct+Zlib: 0 failures, every request a cin holding what was sent", async () => {
    expect(existsSync(LOCUST), "locust is installed by .ci/setup-python.sh").toBe(true);
    const dir = tempDir("satpayload-paper-clients-");
    for (const f of readdirSync(CLIENTS)) if (f.endsWith(".py")) copyFileSync(path.join(CLIENTS, f), path.join(dir, f));
    // the paper's struct packing, shared with the struct reference tests
    copyFileSync(path.join(repoRoot, "codecs/reference/ref_struct.py"), path.join(dir, "ref_struct.py"));
    copyFileSync(path.join(CLIENTS, "container.proto"), path.join(dir, "container.proto"));
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
      const sentFile = path.join(dir, `sent-${format}.json`);
      const run = await runLocust(dir, file, decoder.url, sentFile);
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
      const { cni, cons } = await storedUnder(cse.cseBaseUrl, ae);
      expect(cni, format).toBe(requests);
      expect(cons.length, format).toBe(requests);
      // what the client acknowledged, as Python says it sent it
      const sent = JSON.parse(readFileSync(sentFile, "utf8")) as Fields[];
      expect(sent.length, format).toBe(requests);
      const expected = new Map<string, Fields[]>();
      for (const r of sent) expected.set(identity(r), [...(expected.get(identity(r)) ?? []), r]);
      for (const con of cons) {
        const mine = expected.get(identity(con));
        expect(mine, `${format}: ${identity(con)} is stored but was not sent`).toBeDefined();
        // every field, as text, exactly as sent
        expect(con, `${format}: ${identity(con)}`).toEqual(mine![0]);
        mine!.shift();
        if (mine!.length === 0) expected.delete(identity(con));
      }
      expect([...expected.keys()], `${format}: sent but not stored`).toEqual([]);
      console.log(
        `paper client ${format}: ${requests} requests, ${stats[0]!.num_failures} failures, ${decoded.records} records, ${cni} cins in the CSE, each con equal to the record sent`,
      );
      await decoder.stop();
    }
  }, 300_000);
});
