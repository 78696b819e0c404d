// `satpayload stack …` as users run it: detached up, status, down, a foreground up stopped with
// Ctrl-C, and the export bundle (files, refusal of bad input).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codecFor, generateSamples, parseLayout, presetById } from "#codecs";
import { own, spawnOwned } from "#codecs-test/helpers/processes/owned.ts";
import { pidAlive } from "#host/stack/stateFile.ts";
import { ownStack } from "#host/stack/test/support.ts";
import { tempDir } from "#host/test/support.ts";
import { CSE_ENTRY, launch, nodeCommand, repoRoot, stopChild } from "#services/shared/launch.ts";
import { UsageError } from "./commands/errors.ts";
import { stackCommand } from "./commands/stack.ts";

const CLI = path.join(repoRoot, "bin/satpayload.ts");

function cli(args: string[], env: NodeJS.ProcessEnv = {}): { code: number; stdout: string; stderr: string } {
  const c = nodeCommand(CLI, args);
  const r = spawnSync(c.command, c.args, { env: { ...c.env, ...env }, encoding: "utf8", timeout: 150_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe("satpayload stack", () => {
  it("up --detach, status, a record through it, down", { timeout: 180_000 }, async () => {
    const dataDir = tempDir();
    const up = cli(["stack", "up", "--detach", "--data-dir", dataDir, "--container", "shared", "--json"]);
    expect(up.code, up.stderr).toBe(0);
    const started = JSON.parse(up.stdout);
    expect(started).toMatchObject({ schema: "satpayload.stack/1", state: "running", owner: "cli" });
    // the background stack is a session of its own: owned, so that a timeout stops it as `stack down` would
    ownStack(started.ownerPid);
    try {
      const again = cli(["stack", "up", "--detach", "--data-dir", dataDir]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already running \(pid \d+/);

      const paper = parseLayout(presetById("paper")!.layout);
      const bytes = codecFor(paper, "cbor").encode(generateSamples(paper, 1, 3)[0]!);
      const r = await fetch(started.endpoints.ingest, {
        method: "POST",
        body: bytes as Uint8Array<ArrayBuffer>,
        headers: { "content-type": "application/cbor", "x-satpayload-layout": "paper" },
      });
      expect(r.status).toBe(201);
      for (let k = 0; k < 100; k++) {
        const st = (await (await fetch(started.endpoints.stats)).json()) as { forwarded: number };
        if (st.forwarded === 1) break;
        await new Promise((res) => setTimeout(res, 100));
      }
      const s = cli(["stack", "status", "--json", "--data-dir", dataDir]);
      expect(s.code).toBe(0);
      expect(JSON.parse(s.stdout)).toMatchObject({
        schema: "satpayload.stack-status/1",
        state: "running",
        owner: "cli",
        stats: { records: 1, forwarded: 1 },
      });
    } finally {
      const down = cli(["stack", "down", "--data-dir", dataDir]);
      expect(down.code, down.stderr).toBe(0);
      expect(down.stdout).toMatch(/stopped the stack \(pid \d+\)/);
    }
    expect(pidAlive(started.ownerPid)).toBe(false);
    expect(cli(["stack", "status", "--data-dir", dataDir]).stdout).toBe("no stack is running\n");
    expect(readFileSync(path.join(dataDir, "stack/logs/stack-cli.log"), "utf8")).toMatch(/running: ingest at/);
  });

  it(
    "status shows what the CSE refused, with its answer; retry forwards it once the cause is fixed",
    { timeout: 180_000 },
    async () => {
      // owned from spawn: a failing or timed-out test stops it
      const cse = await launch(CSE_ENTRY, ["--port", "0"], {
        timeoutMs: 60_000,
        detached: true,
        onSpawn: (child) => own(child, { name: "cse" }),
      });
      const base = String(cse.listening.cseBaseUrl);
      const m2m = (method: string, p: string, body: unknown, ty?: number) =>
        fetch(`${base}${p}`, {
          method,
          headers: {
            "X-M2M-RI": `cli-${Math.random()}`,
            "X-M2M-Origin": "Cdecoder",
            "X-M2M-RVI": "3",
            "Content-Type": ty === undefined ? "application/json" : `application/json;ty=${ty}`,
          },
          body: JSON.stringify(body),
        }).then((r) => r.status);
      const dataDir = tempDir();
      try {
        // the shared container is too small for any record: the CSE refuses each one 406/5207
        expect(await m2m("POST", "", { "m2m:ae": { rn: "decoder", api: "Ndecoder", rr: false } }, 2)).toBe(201);
        expect(await m2m("POST", "/decoder", { "m2m:cnt": { rn: "up", mbs: 10 } }, 3)).toBe(201);
        const up = cli([
          "stack",
          "up",
          "--detach",
          "--data-dir",
          dataDir,
          "--cse",
          base,
          "--container",
          "shared",
          "--json",
        ]);
        expect(up.code, up.stderr).toBe(0);
        const started = JSON.parse(up.stdout);
        ownStack(started.ownerPid);
        const paper = parseLayout(presetById("paper")!.layout);
        const bytes = codecFor(paper, "cbor").encode(generateSamples(paper, 1, 4)[0]!);
        const r = await fetch(started.endpoints.ingest, {
          method: "POST",
          body: bytes as Uint8Array<ArrayBuffer>,
          headers: {
            "content-type": "application/cbor",
            "x-satpayload-layout": "paper",
            "x-satpayload-message-id": "cli-1",
          },
        });
        expect(r.status).toBe(201);
        const statsOf = async () =>
          (await (await fetch(started.endpoints.stats)).json()) as { refused: number; delivered: number };
        for (let k = 0; k < 200 && (await statsOf()).refused !== 1; k++)
          await new Promise((res) => setTimeout(res, 100));
        const s = cli(["stack", "status", "--data-dir", dataDir]);
        expect(s.code, s.stderr).toBe(0);
        expect(s.stdout).toMatch(/1 records from \d+ devices: 0 delivered, 0 pending, 1 refused by the CSE/);
        expect(s.stdout).toMatch(/up: 1 refused — HTTP 406\/RSC 5207 /);
        expect(s.stdout).toMatch(/satpayload stack retry/);
        const j = JSON.parse(cli(["stack", "status", "--json", "--data-dir", dataDir]).stdout);
        expect(j.refused).toEqual([
          expect.objectContaining({
            messageId: "cli-1",
            refusal: expect.objectContaining({ status: 406, rsc: 5207, container: "up" }),
          }),
        ]);
        // fixed: the container takes records of this size now
        expect(await m2m("PUT", "/decoder/up", { "m2m:cnt": { mbs: 1_000_000 } })).toBe(200);
        const retried = cli(["stack", "retry", "--data-dir", dataDir]);
        expect(retried.code, retried.stderr).toBe(0);
        expect(retried.stdout).toMatch(/^1 refused record\(s\) back to pending/);
        for (let k = 0; k < 200 && (await statsOf()).delivered !== 1; k++)
          await new Promise((res) => setTimeout(res, 100));
        expect(cli(["stack", "status", "--data-dir", dataDir]).stdout).toMatch(
          /1 delivered, 0 pending, 0 refused by the CSE/,
        );
        expect(cli(["stack", "retry", "--data-dir", dataDir]).stdout).toBe("no refused records\n");
      } finally {
        cli(["stack", "down", "--data-dir", dataDir]);
        await stopChild(cse.child, cse.exited);
      }
    },
  );

  it("runs in the foreground until Ctrl-C and then stops both services", { timeout: 120_000 }, async () => {
    const dataDir = tempDir();
    const c = nodeCommand(CLI, ["stack", "up", "--data-dir", dataDir, "--replicas", "2"]);
    // owned: on failure or timeout it gets Ctrl-C as from a terminal (SIGINT to its group, services included)
    const { child } = spawnOwned(c.command, c.args, {
      env: c.env,
      stdio: ["ignore", "pipe", "pipe"],
      stop: (me) => me.signal("SIGINT"),
    });
    let out = "";
    let err = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    try {
      const until = Date.now() + 90_000;
      // the services' "started" lines reach stderr in batches, possibly after the banner
      while (
        !(/Press Ctrl-C to stop/.test(out) && (err.match(/started \(pid/g) ?? []).length === 2) &&
        Date.now() < until
      )
        await new Promise((r) => setTimeout(r, 100));
      expect(out, err).toMatch(/stack running \(2 decoder replica\(s\)/);
      const state = JSON.parse(readFileSync(path.join(dataDir, "stack/state.json"), "utf8"));
      expect(state.pid).toBe(child.pid);
      const pids = [...err.matchAll(/started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
      expect(pids).toHaveLength(2);
      child.kill("SIGINT");
      expect(await exited).toBe(0);
      for (const pid of pids) expect(pidAlive(pid)).toBe(false);
      expect(existsSync(path.join(dataDir, "stack/state.json"))).toBe(false);
    } finally {
      // a failed assertion must not leave the stack running
      if (child.exitCode === null) child.kill("SIGINT");
      await exited;
    }
  });

  it("export writes the compose bundle, and refuses bad layouts and missing flags", () => {
    const out = tempDir();
    const layoutFile = path.join(tempDir(), "tracker.satlayout.json");
    writeFileSync(layoutFile, JSON.stringify(presetById("kineis-tracker")!.layout));
    const r = cli(["stack", "export", "--out", out, "--replicas", "3", "--layout", layoutFile, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const written = JSON.parse(r.stdout) as { schema: string; files: string[]; tlsProblem: string | null };
    expect(written.schema).toBe("satpayload.stack-export/2");
    expect(written.tlsProblem).toBeNull();
    expect(written.files.filter((f) => !f.startsWith("src/") && !f.startsWith("k8s/"))).toEqual([
      "secrets/keys.json",
      "nginx/certs/tls.crt",
      "nginx/certs/tls.key",
      "docker-compose.yml",
      ".env",
      "nginx/decoder.conf",
      "Dockerfile",
      ".dockerignore",
      "README.md",
      "layouts/tracker.satlayout.json",
    ]);
    expect(written.files).toContain("src/services/decoder/main.ts");
    expect(written.files).toContain("k8s/decoder-statefulset.yaml");
    const compose = readFileSync(path.join(out, "docker-compose.yml"), "utf8");
    for (const k of [1, 2, 3]) expect(compose).toContain(`  decoder-${k}:`);
    expect(compose).toContain('"--buffer-total"');
    expect(compose).toContain("buffers:/data");
    expect(compose).toContain("cse-data:/data");
    expect(compose).toContain('"/layouts/tracker.satlayout.json"');
    const nginx = readFileSync(path.join(out, "nginx/decoder.conf"), "utf8");
    expect(nginx).toMatch(/least_conn;/);
    expect(nginx.match(/server decoder-\d:8080/g)).toHaveLength(3);
    expect(readFileSync(path.join(out, "Dockerfile"), "utf8")).toMatch(/^FROM node:20/m);

    const bad = path.join(tempDir(), "bad.satlayout.json");
    writeFileSync(
      bad,
      JSON.stringify({
        format: "satlayout",
        version: 1,
        name: "x",
        fields: [{ id: "a", key: "a", name: "a", type: { kind: "int", bits: 7 } }],
      }),
    );
    const refused = cli(["stack", "export", "--out", tempDir(), "--layout", bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'satpayload: invalid layout: Field "a": Bits is 7; allowed: 8, 16, 32, 64. Field "a": Signed is missing; it must be true or false.\n',
    );
    expect(cli(["stack", "export"]).code).toBe(2);
  });

  it("export --mqtt-port/--coap-port publish them through nginx's stream module", () => {
    const out = tempDir();
    const r = cli([
      "stack",
      "export",
      "--out",
      out,
      "--replicas",
      "2",
      "--mqtt-port",
      "8883",
      "--coap-port",
      "5683",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { files: string[] }).files).toEqual(
      expect.arrayContaining(["nginx/nginx.conf", "nginx/stream.conf"]),
    );
    expect(readFileSync(path.join(out, ".env"), "utf8")).toMatch(/^MQTT_PORT=8883$[\s\S]*^COAP_PORT=5683$/m);
    for (const [argv, why] of [
      [["--mqtt-port", "0"], /--mqtt-port must be within 1\.\.65535/],
      [["--mqtt-port", "443"], /--mqtt-port 443 is nginx's HTTPS port already/],
      [["--coap-port", "x"], /--coap-port must be a whole number/],
    ] as const) {
      const refused = cli(["stack", "export", "--out", tempDir(), ...argv]);
      expect(refused.code, argv.join(" ")).toBe(2);
      expect(refused.stderr).toMatch(why);
    }
  });

  it("refuses bad flags as usage errors (exit 2)", async () => {
    // in-process: the exit code follows from the error class (bin/satpayload.ts)
    for (const argv of [
      ["sideways"],
      [],
      ["export", "--out", tempDir(), "--replicas", "0"],
      ["up", "--container", "both"],
      ["up", "--cse", "ftp://x/y"],
      ["up", "--port", "70000"],
    ])
      await expect(stackCommand(argv), argv.join(" ")).rejects.toBeInstanceOf(UsageError);
  });
});
