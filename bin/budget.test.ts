// `satpayload budget` run as users run it (a subprocess through tsx): the docs' hand cases come out of --json, a
// measured layout is budgeted per format with its fragments, bad input exits with a sentence.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CODECS, generateSamples, measureSizes, parseLayout, presetById } from "#codecs";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { repoRoot } from "#codecs-test/helpers/python.ts";
import {
  DEFAULT_TRACKER,
  budgetRows,
  defaultScenario,
  evaluateFleet,
  layoutStackId,
  type DeviceBudget,
} from "#planning";

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
  messagesPerRecord: number;
  bytesOnAir: number;
  budget?: { batteryLifeYears: number; airtimePerDayS: number };
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
    expect(json.messagesPerRecord).toBe(Math.ceil(json.bytes / 158));
    expect(rows[2]!.messagesPerRecord).toBe(1);
    expect(rows[2]!.budget!.batteryLifeYears).toBeGreaterThan(json.budget!.batteryLifeYears);
  });

  it("gives the Budget view's numbers for the same records: the fleet cost's cells through budgetRows", async () => {
    const r = await cli(["--preset", "paper", "--samples", "120", "--seed", "7", "--radio", "txMa=500", "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { rows: (JsonRow & { budget?: DeviceBudget })[] };
    // what the Budget view computes (BudgetPage: evaluateFleet over the measured sizes, then budgetRows)
    const paper = parseLayout(presetById("paper")!.layout);
    const measured = measureSizes(paper, generateSamples(paper, 120, 7)).map((m) => ({
      format: m.format,
      label: CODECS[m.format].info.label,
      stats: m.stats,
      sizes: m.sizes,
    }));
    const platforms = [...new Set(out.rows.map((x) => x.platform))];
    const scenario = { ...defaultScenario(), formats: measured.map((m) => m.format), platforms };
    const cells = evaluateFleet(scenario, measured, { layout: layoutStackId(paper.name) }).cells;
    const radioOverrides = {
      astrocast: { txMa: 500 },
      "iridium-sbd": {},
      ...Object.fromEntries(platforms.filter((p) => p.startsWith("lorawan-")).map((p) => [p, { txMa: 500 }])),
    };
    const view = budgetRows(cells, { intervalSeconds: 21_600, device: DEFAULT_TRACKER, radioOverrides });
    expect(out.rows.length).toBe(view.length);
    for (const v of view) {
      const c = out.rows.find((x) => x.format === v.format && x.platform === v.platformId)!;
      expect(c.messagesPerRecord, `${v.format} on ${v.platformId}`).toBe(v.messagesPerRecord);
      expect(c.bytesOnAir).toBe(v.bytesOnAir);
      expect(c.error).toBe(v.error);
      if (v.budget) expect(c.budget!.batteryLifeYears).toBe(v.budget.batteryLifeYears);
      if (v.budget) expect(c.budget!.energyPerReadingJ).toEqual(v.budget.energyPerReadingJ);
    }
    // JSON on Astrocast is split exactly as the Cost page splits it
    expect(out.rows.find((x) => x.format === "json" && x.platform === "astrocast")!.messagesPerRecord).toBe(3);
  });

  it("the table names the limits a format breaks", async () => {
    const r = await cli(["--bytes", "51", "--platform", "lorawan-eu868-dr0", "--interval", "60"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^51 B\s+lorawan-eu868-dr0\s+51\s+1\s+2\.793\s+4022\.6\s+over: duty-cycle, fair-use/m);
  });

  it("--batch, --device, --devices and --years change what they say", async () => {
    const device = path.join(tmp, "bigger.json");
    writeFileSync(device, JSON.stringify({ batteryMah: 5200 }));
    const [base, batched, bigger] = await Promise.all([
      cli(["--bytes", "40", "--platform", "astrocast", "--json"]),
      cli(["--bytes", "40", "--platform", "astrocast", "--interval", "5400", "--batch", "4", "--json"]),
      cli([
        "--bytes",
        "40",
        "--platform",
        "astrocast",
        "--device",
        device,
        "--devices",
        "100",
        "--years",
        "20",
        "--json",
      ]),
    ]);
    type Out = { rows: (JsonRow & { budget: { messagesPerDay: number; energyPerReadingJ: { radio: number } } })[] };
    const [b, t, g] = [base, batched, bigger].map((r) => (JSON.parse(r.out) as Out).rows[0]!);
    // 4 readings a message, a reading every 1.5 h: still 4 messages a day, a quarter of a message per reading
    expect(t!.budget.messagesPerDay).toBeCloseTo(4, 12);
    expect(t!.budget.energyPerReadingJ.radio).toBeCloseTo(b!.budget.energyPerReadingJ.radio / 4, 12);
    // twice the battery, the rest of the default tracker kept: twice the usable energy and twice the self-discharge
    // (docs/budget.md: 26 956.8 J usable, 336.96 J a year), the same load
    const load = 26_956.8 / b!.budget!.batteryLifeYears - 336.96;
    expect(g!.budget!.batteryLifeYears).toBeCloseTo((2 * 26_956.8) / (load + 2 * 336.96), 9);
    const swaps = Math.floor(20 / g!.budget!.batteryLifeYears);
    expect(g!.swaps).toMatchObject({ swapsPerDevice: swaps, swaps: 100 * swaps, total: 100 * swaps * 65 });
  });

  it("bad input: a device file with zero capacity (exit 1), an unknown platform or radio constant (exit 2)", async () => {
    const device = path.join(tmp, "device.json");
    writeFileSync(device, JSON.stringify({ batteryMah: 0, readingEnergyMj: { gnss: -1 } }));
    const [a, b, c, d] = await Promise.all([
      cli(["--bytes", "10", "--device", device]),
      cli(["--bytes", "10", "--platform", "swarm"]),
      cli(["--bytes", "10", "--radio", "txMa=-1"]),
      cli(["--preset", "paper", "--samples", "5", "--batch", "4"]),
    ]);
    // a layout's readings per message are its batch's, as in the Budget view
    expect(d.code).toBe(2);
    expect(d.err).toContain("--batch goes with --bytes");
    expect(a.code).toBe(1);
    expect(a.err).toContain("batteryMah: Battery capacity must be above 0 mAh");
    expect(a.err).toContain("readingEnergyMj.gnss: GNSS energy per reading cannot be negative");
    expect(b.code).toBe(2);
    expect(b.err).toContain("no radio model for swarm");
    expect(c.code).toBe(1);
    expect(c.err).toContain("TX current cannot be negative");
  });
});
