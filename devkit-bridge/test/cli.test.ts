// `satpayload devkit simulate` prints a device path the real binding (and `devkit send`) can use.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spawnOwned } from "#codecs-test/helpers/processes/owned.ts";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsx = path.join(root, "node_modules/.bin/tsx");

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  // owned: stopped with tsx's node child after 60 s, or when its test ends first
  const r = await runOwned(tsx, ["bin/satpayload.ts", ...args], { cwd: root, timeoutMs: 60_000 });
  return { code: typeof r.code === "number" ? r.code : 1, out: r.stdout, err: r.stderr };
}

describe("satpayload devkit", () => {
  it("simulate prints the pty path; send enqueues on it and waits for the satellite ack; Ctrl+C removes it", async () => {
    let devicePath = "";
    // owned: if the test fails or times out, it gets the Ctrl+C a terminal would send (SIGINT to the group)
    const owned = spawnOwned(tsx, ["bin/satpayload.ts", "devkit", "simulate", "--pass-delay", "300"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      stop: (me) => me.signal("SIGINT"),
    });
    const sim = owned.child;
    try {
      devicePath = await new Promise<string>((resolve, reject) => {
        let out = "";
        sim.stdout!.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("\n")) resolve(out.split("\n")[0]!);
        });
        sim.once("exit", (code) => reject(new Error(`simulate exited with ${code}`)));
      });
      expect(devicePath).toMatch(/ttyDEVKIT0$/);
      expect(existsSync(devicePath)).toBe(true);

      const sent = await cli(["devkit", "send", "--port", devicePath, "--hex", "48 65 6c 6c 6f", "--wait-ack", "20"]);
      expect(sent.err).toBe("");
      expect(sent.code).toBe(0);
      const id = /queued 5 bytes as payload id (\d+)/.exec(sent.out)?.[1];
      expect(id).toBeDefined();
      expect(sent.out).toContain(`satellite acknowledged payload id ${id}`);

      const [big, missing] = await Promise.all([
        cli(["devkit", "send", "--port", devicePath, "--hex", "00".repeat(170)]),
        cli(["devkit", "send", "--port", devicePath + "-nope", "--hex", "00"]),
      ]);
      expect([big.code, big.err.trim()]).toEqual([
        1,
        "satpayload: the payload is 170 bytes: 10 over the Astronode's 160",
      ]);
      expect(missing.code).toBe(1);
      expect(missing.err).toMatch(/does not exist: is the DevKit plugged in/);
    } finally {
      const gone = new Promise((r) => sim.once("exit", r));
      sim.kill("SIGINT");
      await gone;
    }
    expect(existsSync(devicePath)).toBe(false);
  }, 120_000);

  it("ports lists without failing and usage errors exit 2", async () => {
    const [ports, bare, noPort] = await Promise.all([
      cli(["devkit", "ports", "--json"]),
      cli(["devkit"]),
      cli(["devkit", "send", "--hex", "00"]),
    ]);
    expect(ports.code).toBe(0);
    expect(JSON.parse(ports.out)).toMatchObject({
      schema: "satpayload.devkit-ports/1",
      ports: expect.any(Array),
      problems: expect.any(Array),
    });
    expect(bare.code).toBe(2);
    expect([noPort.code, noPort.err]).toEqual([2, expect.stringMatching(/--port is required/)]);
  }, 60_000);
});
