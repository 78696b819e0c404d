// Port listing explains what stands in the way instead of throwing.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PortError } from "../src/errors.ts";
import { listPorts } from "../src/link/ports.ts";
import { explainOpenError, openSerial } from "../src/link/serial.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fakeDev(names: string[]): string {
  const d = mkdtempSync(path.join(os.tmpdir(), "satpayload-dev-"));
  dirs.push(d);
  for (const n of names) writeFileSync(path.join(d, n), "");
  return d;
}

describe("listPorts", () => {
  it("lists this machine's ports without throwing", async () => {
    const out = await listPorts();
    expect(Array.isArray(out.ports)).toBe(true);
    for (const p of out.ports) expect(p.label).toContain(p.path);
  });

  it("without udevadm on PATH it says to install udev and still finds USB serial nodes", async () => {
    const dev = fakeDev(["ttyUSB0", "ttyACM3", "tty0", "null"]);
    const saved = process.env.PATH;
    process.env.PATH = fakeDev([]);
    try {
      const out = await listPorts({ devDir: dev, platform: "linux" });
      expect(out.problems.join(" ")).toMatch(/udev.*udevadm/);
      expect(out.ports.map((p) => path.basename(p.path))).toEqual(["ttyACM3", "ttyUSB0"]);
      expect(out.ports.every((p) => p.likelyDevkit && p.accessible)).toBe(true);
    } finally {
      process.env.PATH = saved;
    }
  });

  it("a port the user may not open carries the dialout hint (root never sees EACCES, so the OS check is injected)", async () => {
    const denied = Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    const out = await listPorts({
      platform: "linux",
      devDir: fakeDev([]),
      list: async () => [
        { path: "/dev/ttyUSB7", vendorId: "10c4", manufacturer: "Silicon Labs", serialNumber: "0001" },
        { path: "/dev/ttyS0" },
      ],
      access: async (p) => {
        if (p === "/dev/ttyUSB7") throw denied;
      },
    });
    const usb = out.ports[0]!;
    expect(usb).toMatchObject({
      path: "/dev/ttyUSB7",
      likelyDevkit: true,
      accessible: false,
      label: "/dev/ttyUSB7 (Silicon Labs, SN 0001)",
    });
    expect(usb.hint).toMatch(/dialout|usermod -aG/);
    expect(out.ports[1]).toMatchObject({ path: "/dev/ttyS0", likelyDevkit: false, accessible: true });
    expect(out.problems.join(" ")).toMatch(/dialout/);
  });

  it("opening a missing port is a PortError that says what to check", async () => {
    await expect(openSerial("/dev/ttyUSB_satpayload_missing")).rejects.toThrow(
      /does not exist: is the DevKit plugged in/,
    );
    expect(
      explainOpenError("/dev/ttyUSB0", new Error("Error: Permission denied, cannot open /dev/ttyUSB0")),
    ).toBeInstanceOf(PortError);
    expect(
      explainOpenError("/dev/ttyUSB0", new Error("Error: Permission denied, cannot open /dev/ttyUSB0")).message,
    ).toMatch(/dialout/);
    expect(explainOpenError("/dev/ttyUSB0", new Error("Error: Resource busy")).message).toMatch(
      /in use by another program/,
    );
  });
});
