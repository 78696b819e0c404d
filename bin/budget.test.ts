// `satpayload budget` run as users run it (a subprocess through tsx): the docs' hand cases come out of --json, a
// measured layout is budgeted per format with its fragments, bad input exits with a sentence.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { repoRoot } from "#codecs-test/helpers/python.ts";

const TSX = path.join(repoRoot, "node_modules/.bin/tsx");
const tmp = mkdtempSync(path.join(os.tmpdir(), "satpayload-budget-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(args: string[]) {
  const r = await runOwned(TSX, ["bin/satpayload.ts", "budget", ...args], { cwd: repoRoot });
  return { code: r.code, out: r.stdout, err: r.stderr };
}

interface JsonRow {
  format: string | null;
  platform: string;
  bytes: number;
  error: string | null;
  budget?: { batteryLifeYears: number; fragmentsPerRecord: number; airtimePerDayS: number };
  swaps?: { swapsPerDevice: number; total: number };
}

describe("satpayload budget", { timeout: 180_000 }, () => {
  it("--bytes 40 --json: docs/budget.md's three hand-computed battery lives", async () => {
    const r = await cli(["--bytes", "40", "--interval", "21600", "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { schema: string; rows: JsonRow[] };
    expect(out.schema).toBe("satpayload.budget/1");
    const life = (p: string) => out.rows.find((x) => x.platform === p)!.budget!.batteryLifeYears;
    expect(life("lorawan-eu868-dr0")).toBeCloseTo(12.47, 3);
    expect(life("lorawan-eu868-dr5")).toBeCloseTo(14.827, 3);
    expect(life("astrocast")).toBeCloseTo(5.172, 3);
    expect(out.rows.map((x) => x.platform)).toEqual([
      "astrocast",
      "lorawan-eu868-dr0",
      "lorawan-eu868-dr1",
      "lorawan-eu868-dr2",
      "lorawan-eu868-dr3",
      "lorawan-eu868-dr4",
      "lorawan-eu868-dr5",
      "iridium-sbd",
    ]);
    // Astrocast at 5.17 years over 10: one swap per device, €65 each, 10 000 devices
    expect(out.rows[0]!.swaps).toMatchObject({ swapsPerDevice: 1, total: 650_000 });
  });

  it("a measured layout: each format's mean size, split in fragments where it does not fit", async () => {
    const r = await cli([
      "--preset",
      "paper",
      "--samples",
      "50",
      "--format",
      "json,bitpacked",
      "--platform",
      "astrocast,lorawan-eu868-dr5",
      "--json",
    ]);
    expect(r.code).toBe(0);
    const rows = (JSON.parse(r.out) as { rows: JsonRow[] }).rows;
    expect(rows.map((x) => [x.format, x.platform])).toEqual([
      ["json", "astrocast"],
      ["json", "lorawan-eu868-dr5"],
      ["bitpacked", "astrocast"],
      ["bitpacked", "lorawan-eu868-dr5"],
    ]);
    const json = rows[0]!;
    expect(json.bytes).toBeGreaterThan(160);
    expect(json.budget!.fragmentsPerRecord).toBe(Math.ceil(json.bytes / 158));
    expect(rows[2]!.budget!.fragmentsPerRecord).toBe(1);
    expect(rows[2]!.budget!.batteryLifeYears).toBeGreaterThan(json.budget!.batteryLifeYears);
  });

  it("the table names the limits a format breaks", async () => {
    const r = await cli(["--bytes", "51", "--platform", "lorawan-eu868-dr0", "--interval", "60"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^51 B\s+lorawan-eu868-dr0\s+51\s+1\s+2\.793\s+4022\.6\s+over: duty-cycle, fair-use/m);
  });

  it("bad input: a device file with zero capacity (exit 1), an unknown platform or radio constant (exit 2)", async () => {
    const device = path.join(tmp, "device.json");
    writeFileSync(device, JSON.stringify({ batteryMah: 0, readingEnergyMj: { gnss: -1 } }));
    const [a, b, c] = await Promise.all([
      cli(["--bytes", "10", "--device", device]),
      cli(["--bytes", "10", "--platform", "swarm"]),
      cli(["--bytes", "10", "--radio", "txMa=-1"]),
    ]);
    expect(a.code).toBe(1);
    expect(a.err).toContain("batteryMah: Battery capacity must be above 0 mAh");
    expect(a.err).toContain("readingEnergyMj.gnss: GNSS energy per reading cannot be negative");
    expect(b.code).toBe(2);
    expect(b.err).toContain("no radio model for swarm");
    expect(c.code).toBe(1);
    expect(c.err).toContain("TX current cannot be negative");
  });
});
