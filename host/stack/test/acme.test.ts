// `satpayload stack up --cse acme`: the stack starts and supervises a real ACME (PyPI acmecse, from
// the repo's venv here) as its CSE; a short `satpayload loadtest` against the stack's decoder, and
// every record is read back from ACME itself.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { loadTestResultSchema } from "#contracts/loadtest/result.ts";
import { nodeCommand, repoRoot } from "#services/shared/launch.ts";
import { ownStack } from "./support.ts";
import { tempDir } from "../../test/support.ts";
import { pidAlive } from "../stateFile.ts";

const CLI = path.join(repoRoot, "bin/satpayload.ts");

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const c = nodeCommand(CLI, args);
  const r = await runOwned(c.command, c.args, { env: c.env, timeoutMs: 240_000 });
  return { code: typeof r.code === "number" ? r.code : 1, stdout: r.stdout, stderr: r.stderr };
}

/** oneM2M GET as ACME's admin, who may read every resource */
async function acmeGet(url: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(url, {
    headers: {
      "X-M2M-RI": `t${Math.random()}`,
      "X-M2M-Origin": "CAdmin",
      "X-M2M-RVI": "3",
      Accept: "application/json",
    },
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

describe("stack up --cse acme", () => {
  it("runs a load test end to end: records reach ACME and read back from it", { timeout: 300_000 }, async () => {
    const dataDir = tempDir();
    const up = await cli([
      "stack",
      "up",
      "--detach",
      "--cse",
      "acme",
      "--container",
      "shared",
      "--data-dir",
      dataDir,
      "--json",
    ]);
    expect(up.code, up.stderr + up.stdout).toBe(0);
    const started = JSON.parse(up.stdout) as {
      ownerPid: number;
      options: { cseKind: string };
      endpoints: { ingest: string; stats: string; latest: string; cse: string; container: string };
    };
    // the background stack (decoder, ACME) is a session of its own: owned, so that a timeout stops it too
    ownStack(started.ownerPid);
    try {
      expect(started.options.cseKind).toBe("acme");
      expect(started.endpoints.cse).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cse-in$/);
      // ACME itself answers there, as ACME: its CSEBase resource with its CSE-ID
      const cb = await acmeGet(started.endpoints.cse);
      expect(cb.status).toBe(200);
      expect(cb.json["m2m:cb"]).toMatchObject({ csi: "/id-in", rn: "cse-in" });

      const run = await cli([
        "loadtest",
        "run",
        "--preset",
        "paper",
        "--format",
        "protobuf",
        "--url",
        started.endpoints.ingest,
        "--devices",
        "5",
        "--wait",
        "const:0.1",
        "--duration",
        "3",
        "--warmup",
        "0",
        "--pool-size",
        "200",
        "--no-e2e",
        "--json",
        "--quiet",
      ]);
      expect(run.code, run.stderr).toBe(0);
      const result = loadTestResultSchema.parse(JSON.parse(run.stdout));
      expect(result.requests.sent).toBeGreaterThan(20);
      expect(result.requests.succeeded).toBe(result.requests.sent);

      let stats = { records: 0, forwarded: -1, backlog: 1 };
      for (let k = 0; k < 600 && !(stats.backlog === 0 && stats.forwarded === stats.records); k++) {
        stats = (await (await fetch(started.endpoints.stats)).json()) as typeof stats;
        if (stats.backlog !== 0 || stats.forwarded !== stats.records) await new Promise((r) => setTimeout(r, 100));
      }
      expect(stats.records).toBe(result.requests.sent);
      expect(stats.forwarded).toBe(stats.records);

      // read back from ACME: the container's instance count, every instance by discovery, and la
      const cnt = await acmeGet(started.endpoints.container);
      expect(cnt.status).toBe(200);
      expect((cnt.json["m2m:cnt"] as { cni: number }).cni).toBe(stats.records);
      const found = await acmeGet(`${started.endpoints.container}?fu=1&ty=4`);
      expect((found.json["m2m:uril"] as string[]).length).toBe(stats.records);
      const la = await acmeGet(`${started.endpoints.container}/la`);
      expect(la.status).toBe(200);
      const newest = (
        (await (await fetch(`${started.endpoints.latest}?limit=1`)).json()) as {
          records: { rn: string; record: unknown }[];
        }
      ).records[0]!;
      const cin = la.json["m2m:cin"] as { rn: string; con: unknown };
      expect(cin.rn).toBe(newest.rn);
      // the decoder posts the record as a JSON object in con, and ACME keeps it one
      expect(cin.con).toEqual(newest.record);
    } finally {
      const down = await cli(["stack", "down", "--data-dir", dataDir]);
      expect(down.code, down.stderr).toBe(0);
    }
    expect(pidAlive(started.ownerPid)).toBe(false);
  });
});
