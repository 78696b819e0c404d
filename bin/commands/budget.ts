// `satpayload budget`: airtime against the platform's limits, energy per message and battery life, per format ×
// platform (docs/budget.md). Sizes are measured like `satpayload sizes`, or one size is given with --bytes.
import { CODECS, measureSizes } from "#codecs";
import {
  BudgetError,
  DEFAULT_TRACKER,
  batterySwapCost,
  checkDeviceModel,
  defaultStack,
  layoutStackId,
  overheadFn,
  platformById,
  PLATFORMS,
  radioModelFor,
  resolveRadio,
  budgetRows,
  defaultScenario,
  evaluateFleet,
  measureBatches,
  sizeBudget,
  type DeviceBudget,
  type DeviceModel,
} from "#planning";
import {
  InputError,
  intFlag,
  LAYOUT_FLAGS,
  loadLayout,
  parseFlags,
  parseFormats,
  readText,
  table,
  UsageError,
  write,
  commaList,
} from "./common.ts";
import { loadRecords, RECORD_FLAGS } from "./records.ts";

export const BUDGET_SCHEMA = "satpayload.budget/1";

/** The issue's comparison: Astrocast, LoRaWAN EU868 DR0–DR5 and Iridium SBD. */
export const DEFAULT_BUDGET_PLATFORMS = [
  "astrocast",
  ...[0, 1, 2, 3, 4, 5].map((dr) => `lorawan-eu868-dr${dr}`),
  "iridium-sbd",
];

export const budgetHelp = `satpayload budget --layout FILE | --preset ID | --bytes N [--platform ID...] [--format all|NAME...]
                  [--records FILE.jsonl | --samples N --seed S] [--interval SECONDS] [--batch N]
                  [--device FILE.json] [--radio NAME=VALUE...] [--devices N] [--years N] [--json]
  Per format and platform: airtime per message and per day against the duty cycle and fair-use
  limits, energy per message and per reading (radio / sensors / sleep), battery life of the
  default tracker (or --device, a JSON file of the fields to change) and the battery swaps of a
  fleet over --years (default 10 000 devices, 10 years). A reading every --interval seconds
  (default 21600: 4 a day), --batch readings per message (default 1). Records are costed as the
  Budget view costs them: the fleet cost's mean message on air (B: the mean payload, rounded up);
  a record over the platform's message is sent in the cost model's fragments ("msgs": messages a
  record, a mean). --batch goes with --bytes; a layout's batch sets its own readings per message. Platforms default to ${DEFAULT_BUDGET_PLATFORMS.join(", ")}.
  --radio txMa=40 replaces a radio constant (docs/budget.md names them).
`;

function positive(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a number above 0, got "${value}"`);
  return n;
}

function loadDevice(file: string | undefined): DeviceModel {
  if (file === undefined) return DEFAULT_TRACKER;
  let json: unknown;
  try {
    json = JSON.parse(readText(file));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${file}: not JSON (${(e as Error).message})`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new InputError(`${file}: a device is a JSON object (fields of docs/budget.md's default tracker)`);
  const given = json as Partial<DeviceModel>;
  const device = {
    ...DEFAULT_TRACKER,
    ...given,
    readingEnergyMj: { ...DEFAULT_TRACKER.readingEnergyMj, ...given.readingEnergyMj },
  };
  const issues = checkDeviceModel(device);
  if (issues.length) throw new InputError(`${file}: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  return device;
}

/** --radio NAME=VALUE…, each name known to at least one chosen platform's radio (a typo is not silently ignored). */
function parseRadio(values: readonly string[] | undefined, platforms: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of commaList(values)) {
    const m = /^([A-Za-z0-9]+)=(.+)$/.exec(v);
    if (!m) throw new UsageError(`--radio takes NAME=VALUE, got "${v}"`);
    const value = Number(m[2]);
    if (!Number.isFinite(value)) throw new UsageError(`--radio ${m[1]}: "${m[2]}" is not a number`);
    if (!platforms.some((p) => m[1]! in radioModelFor(p)!))
      throw new UsageError(`--radio ${m[1]}: none of the chosen platforms' radios has it (docs/budget.md)`);
    out[m[1]!] = value;
  }
  return out;
}

/** The overrides a platform's radio knows: the others belong to other platforms of the same run. */
function overridesFor(platform: string, all: Record<string, number>): Record<string, number> {
  const radio = radioModelFor(platform)!;
  return Object.fromEntries(Object.entries(all).filter(([k]) => k in radio));
}

interface Row {
  format: string | null;
  label: string;
  platform: string;
  /** the record's payload: the given size, or the format's mean size rounded up */
  bytes: number;
  readingsPerMessage: number;
  messagesPerRecord: number;
  /** one message on air: transport and fragment headers included */
  bytesOnAir: number;
  budget: DeviceBudget | null;
  error: string | null;
}

export async function budgetCommand(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, {
    ...LAYOUT_FLAGS,
    ...RECORD_FLAGS,
    bytes: { type: "string" },
    platform: { type: "string", multiple: true },
    format: { type: "string", multiple: true },
    interval: { type: "string" },
    batch: { type: "string" },
    device: { type: "string" },
    radio: { type: "string", multiple: true },
    devices: { type: "string" },
    years: { type: "string" },
    json: { type: "boolean", default: false },
  });
  const platforms = flags.platform ? commaList(flags.platform) : DEFAULT_BUDGET_PLATFORMS;
  const unknown = platforms.filter((p) => !radioModelFor(p));
  if (unknown.length)
    throw new UsageError(
      `no radio model for ${unknown.join(", ")} (models: ${PLATFORMS.filter((p) => radioModelFor(p.id))
        .map((p) => p.id)
        .join(", ")})`,
    );
  const intervalSeconds = positive(flags.interval, "--interval", 21_600);
  const readingsPerMessage = positive(flags.batch, "--batch", 1);
  const devices = intFlag(flags.devices, "--devices", 10_000);
  const years = positive(flags.years, "--years", 10);
  const device = loadDevice(flags.device);
  const radio = parseRadio(flags.radio, platforms);
  // a bad radio value is the user's input, not one cell's verdict: it stops the run (BudgetError, exit 1)
  for (const platform of platforms) resolveRadio({ platform }, overridesFor(platform, radio));

  const w = {
    intervalSeconds,
    device,
    radioOverrides: Object.fromEntries(platforms.map((p) => [p, overridesFor(p, radio)])),
  };
  // what is measured: one given size, or the layout's records in each format, costed as the Budget view costs them
  // (the fleet cost's cells: bytes on air with the default stack's headers, records split as the cost model splits
  // them), so the command and the view give the same figures for the same sizes
  let rows: Row[];
  let measured: {
    layout: string;
    preset: string | null;
    sampleCount: number;
    seed: number | null;
    records: string | null;
  } | null = null;
  if (flags.bytes !== undefined) {
    if (flags.layout !== undefined || flags.preset !== undefined || flags.format !== undefined)
      throw new UsageError("--bytes gives the size: it cannot be combined with --layout, --preset or --format");
    const bytes = intFlag(flags.bytes, "--bytes", undefined);
    rows = platforms.map((platform) => {
      // an IP link carries the default stack's headers (CoAP CON / UDP / IPv4), as `cost` counts them
      const p = platformById(platform);
      const stack = p ? defaultStack(p) : "raw";
      const transportOverhead = stack === "raw" ? undefined : overheadFn(stack, { layout: "device", format: "raw" });
      const at = sizeBudget(platform, bytes, w, {
        readingsPerMessage,
        ...(transportOverhead && { transportOverhead }),
      })!;
      return { format: null, label: `${bytes} B`, platform, bytes, readingsPerMessage, ...at };
    });
  } else {
    if (flags.batch !== undefined)
      throw new UsageError(
        "--batch goes with --bytes: a layout's batch (its readings per message) comes with the layout",
      );
    const { layout, preset } = loadLayout(flags);
    const source = loadRecords(layout, flags);
    measured = {
      layout: layout.name,
      preset: preset ?? null,
      sampleCount: source.records.length,
      seed: source.seed,
      records: source.file,
    };
    const single = measureSizes(layout, source.records, parseFormats(flags.format))
      .filter((m) => m.stats.count > 0)
      .map((m) => ({ format: m.format, label: CODECS[m.format].info.label, stats: m.stats, sizes: m.sizes }));
    // a layout with a batch is sent as its messages of several readings, measured as the Budget view measures them
    // (the delta form, the default count of seeded messages)
    const sizes = layout.batch
      ? measureBatches(
          layout,
          single.map((m) => m.format),
          "delta",
        ).measured
      : single;
    const scenario = { ...defaultScenario(), formats: sizes.map((m) => m.format), platforms };
    const cells = evaluateFleet(scenario, sizes, { layout: layoutStackId(layout.name) }).cells;
    const byCell = new Map(budgetRows(cells, w).map((r) => [`${r.format} ${r.platformId}`, r]));
    // format by format, each on every platform (the order people compare them in)
    rows = sizes.flatMap((m) =>
      platforms.map((platform) => {
        const r = byCell.get(`${m.format} ${platform}`)!;
        return {
          format: m.format,
          label: m.label,
          platform,
          bytes: Math.ceil(m.stats.mean),
          readingsPerMessage: r.readingsPerMessage,
          messagesPerRecord: r.messagesPerRecord,
          bytesOnAir: r.bytesOnAir,
          budget: r.budget,
          error: r.error,
        };
      }),
    );
  }

  if (flags.json) {
    const out = {
      schema: BUDGET_SCHEMA,
      measured,
      intervalSeconds,
      // a layout's readings per message are its batch's, per format (each row's)
      readingsPerMessage: measured ? null : readingsPerMessage,
      device,
      fleet: { devices, years },
      rows: rows.map((r) => ({
        format: r.format,
        label: r.label,
        platform: r.platform,
        bytes: r.bytes,
        readingsPerMessage: r.readingsPerMessage,
        messagesPerRecord: r.messagesPerRecord,
        bytesOnAir: r.bytesOnAir,
        error: r.error,
        ...(r.budget && {
          budget: r.budget,
          swaps: batterySwapCost({ batteryLifeYears: r.budget.batteryLifeYears, devices, years }),
        }),
      })),
    };
    write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }

  if (measured)
    write(
      `${measured.layout} — ${measured.records ? `${measured.sampleCount} records from ${measured.records}` : `${measured.sampleCount} samples, seed ${measured.seed}`}; costed like the Budget view, B is the mean\n`,
    );
  write(
    `a reading every ${intervalSeconds} s, ${measured ? "the layout's readings" : readingsPerMessage} a message; battery ${device.batteryMah} mAh at ${device.batteryVolts} V; swaps: ${devices.toLocaleString("en-US")} devices over ${years} years\n\n`,
  );
  const header = [
    "format",
    "platform",
    "B",
    "msgs",
    "s/msg",
    "s/day",
    "limits",
    "J/msg",
    "J/reading",
    "years",
    "swaps €",
  ];
  const lines = rows.map((r) => {
    const b = r.budget;
    if (!b) return [r.label, r.platform, String(r.bytes), ...header.slice(3).map(() => "–")];
    const over = b.limits.filter((l) => !l.ok).map((l) => l.id);
    const swaps = batterySwapCost({ batteryLifeYears: b.batteryLifeYears, devices, years });
    return [
      r.label,
      r.platform,
      String(r.bytes),
      Number.isInteger(r.messagesPerRecord) ? String(r.messagesPerRecord) : r.messagesPerRecord.toFixed(2),
      b.airtimePerMessageS.toFixed(3),
      b.airtimePerDayS.toFixed(1),
      b.limits.length === 0 ? "–" : over.length ? `over: ${over.join(", ")}` : "ok",
      b.energyPerMessageJ.total.toFixed(3),
      b.energyPerReadingJ.total.toFixed(3),
      b.batteryLifeYears.toFixed(2),
      Math.round(swaps.total).toLocaleString("en-US"),
    ];
  });
  write(table(header, lines, 2));
  const errors = rows.filter((r) => r.error);
  if (errors.length) write(`\n${errors.map((r) => `${r.label} on ${r.platform}: ${r.error}`).join("\n")}\n`);
}
