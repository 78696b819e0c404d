// `satpayload cost`: what a fleet's messages cost per period on one platform, per format, from measured sizes.
import { BATCH_FORMS, type BatchForm, CODECS, measureSizes } from "#codecs";
import {
  type CostResult,
  type CostScenario,
  DEFAULT_BATCH_MESSAGES,
  DEFAULT_BATCH_SEED,
  describePrice,
  estimateCost,
  layoutStackId,
  measureBatches,
  messagesPerDayFor,
  OverheadError,
  overheadFn,
  PAPER_TABLE7_FLEET,
  PAPER_TABLE7_RULES,
  paperTable7,
  resolveStack,
  STACK_IDS,
  stackName,
} from "#planning";
import {
  InputError,
  intFlag,
  LAYOUT_FLAGS,
  loadLayout,
  parseFlags,
  parseFormats,
  resolvePlatform,
  table,
  UsageError,
  write,
} from "./common.ts";
import { loadRecords, RECORD_FLAGS } from "./records.ts";

export const COST_SCHEMA = "satpayload.cost/1";

export const costHelp = `satpayload cost --layout FILE | --preset ID --platform ID|FILE.json --devices N --per-day M
                [--days D] [--format all|NAME...] [--records FILE.jsonl | --samples N --seed S]
                [--fragment-header BYTES] [--stack ID] [--json]
  Period volume and cost per format: from the mean size, worst cases from p95 and max, and the
  exact mean over every measured message (credit and fragment counts per message). Sizes are
  bytes on air: the payload on a modem link, payload + the --stack's headers on an IP link
  (default coap-con; stacks: ${STACK_IDS.join(", ")}).
satpayload cost --layout FILE | --preset ID --platform ID --devices N --per-day R --form columns|delta
                [--samples M --seed S] [...]
  A layout with a batch: R readings a day, each format priced at R ÷ its readings per message
  (the layout's count, or as many as fit its platform) from M generated messages (default 200).
satpayload cost --paper-table7 [--json]
  The paper's Table 7 with the units and roundings that reproduce it.
`;

function money(x: number | undefined, currency: string | undefined): string {
  if (x === undefined || currency === undefined) return "–";
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(x);
}

const grouped = (x: number, digits = 0) =>
  x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function scenarioJson(s: CostScenario) {
  return { ...s, cost: s.cost ?? null };
}

export async function costCommand(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, {
    ...LAYOUT_FLAGS,
    ...RECORD_FLAGS,
    platform: { type: "string" },
    devices: { type: "string" },
    "per-day": { type: "string" },
    days: { type: "string" },
    format: { type: "string", multiple: true },
    "fragment-header": { type: "string" },
    stack: { type: "string" },
    form: { type: "string" },
    "paper-table7": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  });
  if (flags["paper-table7"]) {
    const others = Object.entries(flags).filter(([k, v]) => k !== "json" && k !== "paper-table7" && v !== undefined);
    if (others.length)
      throw new UsageError(
        `--paper-table7 takes no other flag than --json (got --${others.map(([k]) => k).join(", --")})`,
      );
    return printPaperTable7(flags.json ?? false);
  }
  if (flags.platform === undefined) throw new UsageError("--platform is required (or --paper-table7)");
  const platform = resolvePlatform(flags.platform);
  const devices = intFlag(flags.devices, "--devices", undefined);
  const messagesPerDay = intFlag(flags["per-day"], "--per-day", undefined);
  const days = intFlag(flags.days, "--days", 30, 1, 36_500);
  const fragmentHeaderBytes =
    flags["fragment-header"] === undefined
      ? undefined
      : intFlag(flags["fragment-header"], "--fragment-header", undefined);
  let stack;
  try {
    stack = resolveStack(platform, flags.stack);
  } catch (e) {
    if (e instanceof OverheadError) throw new UsageError(e.message);
    throw e;
  }
  const { layout, preset } = loadLayout(flags);
  const formats = parseFormats(flags.format);
  const form = flags.form === undefined ? undefined : parseBatchForm(flags.form);
  if (form !== undefined && !layout.batch)
    throw new InputError(`--form: layout "${layout.name}" declares no batch (which fields repeat per reading)`);
  if (form !== undefined && flags.records !== undefined)
    throw new UsageError("--form prices generated batch messages: it cannot be combined with --records");
  const records = form === undefined ? loadRecords(layout, flags) : undefined;
  const source = records
    ? { count: records.records.length, seed: records.seed, file: records.file }
    : batchSource(flags);
  const measured = records ? measureSizes(layout, records.records, formats) : [];
  const batches =
    form === undefined
      ? undefined
      : measureBatches(layout, formats, form, source.count, source.seed ?? DEFAULT_BATCH_SEED);

  const results: Array<{
    format: (typeof formats)[number];
    result: CostResult | undefined;
    error: string | undefined;
    /** 1 unless the layout's readings travel in batches */
    readingsPerMessage: number;
  }> = [];
  const price = (format: (typeof formats)[number], sizes: CostInputSizes, perMessage: number) => {
    const transportOverhead = overheadFn(stack, { layout: layoutStackId(layout.name), format });
    return estimateCost({
      platform,
      devices,
      messagesPerDay: messagesPerDayFor(messagesPerDay, perMessage),
      days,
      sizes,
      fragmentHeaderBytes,
      transportOverhead,
    });
  };
  for (const m of measured) {
    if (m.stats.count === 0) {
      results.push({
        format: m.format,
        result: undefined,
        error: m.firstError ?? "no record could be encoded",
        readingsPerMessage: 1,
      });
      continue;
    }
    const sizes = { mean: m.stats.mean, p95: m.stats.p95, max: m.stats.max, sizes: m.sizes };
    results.push({
      format: m.format,
      result: price(m.format, sizes, 1),
      error: m.errors > 0 ? m.firstError : undefined,
      readingsPerMessage: 1,
    });
  }
  for (const format of batches ? formats : []) {
    const m = batches!.measured.find((x) => x.format === format);
    if (!m) {
      const reason = batches!.skipped.find((x) => x.format === format)?.reason ?? "cannot carry the batch";
      results.push({ format, result: undefined, error: reason, readingsPerMessage: 0 });
      continue;
    }
    const sizes = { mean: m.stats.mean, p95: m.stats.p95, max: m.stats.max, sizes: m.sizes };
    const n = m.readingsPerMessage ?? 1;
    // not even one reading fits the layout's platform: priced one reading a message, and said
    const single = batches!.oneReading.find((x) => x.format === format)?.reason;
    results.push({ format, result: price(format, sizes, n), error: single, readingsPerMessage: n });
  }

  if (flags.json) {
    const out = {
      schema: COST_SCHEMA,
      layout: layout.name,
      preset: preset ?? null,
      records: source.file,
      seed: source.seed,
      sampleCount: source.count,
      platform: {
        id: platform.id,
        name: platform.name,
        uplinkBytes: platform.uplinkBytes ?? null,
        price: describePrice(platform.billing),
        source: platform.source,
      },
      stack: { id: stack, name: stackName(platform, stack) },
      devices,
      messagesPerDay,
      days,
      messages: devices * messagesPerDay * days,
      // with --form, --per-day counts readings and each format sends fewer messages
      batch: form === undefined ? null : { form, readingsPerDay: messagesPerDay },
      formats: results.map(({ format, result, error, readingsPerMessage }) => ({
        format,
        label: CODECS[format].info.label,
        error: error ?? null,
        readingsPerMessage,
        ...(result
          ? {
              currency: result.currency ?? null,
              volumeUnit: result.volumeUnit,
              unitName: result.unitName,
              mean: scenarioJson(result.mean),
              p95: scenarioJson(result.p95),
              max: scenarioJson(result.max),
              exact: result.exact
                ? {
                    ...scenarioJson(result.exact),
                    shareOverLimit: result.exact.shareOverLimit,
                    unitShares: result.exact.unitShares,
                  }
                : null,
              warnings: result.warnings,
            }
          : {}),
      })),
    };
    write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }

  const what = form
    ? `${source.count} generated messages per format (${form} form), seed ${source.seed}`
    : source.file
      ? `${source.count} records from ${source.file}`
      : `${source.count} samples, seed ${source.seed}`;
  write(`${layout.name} — ${what}\n`);
  write(
    `${platform.name}: ${platform.uplinkBytes === undefined ? "no fixed limit" : `${platform.uplinkBytes} B limit`}, ${describePrice(platform.billing)}; on air: ${stackName(platform, stack)}\n`,
  );
  write(
    form
      ? `${grouped(devices)} devices × ${messagesPerDay} readings/day × ${days} days; readings per message: ${results
          .filter((r) => r.result)
          .map((r) => `${r.format} ${r.readingsPerMessage}`)
          .join(", ")}\n\n`
      : `${grouped(devices)} devices × ${messagesPerDay}/day × ${days} days = ${grouped(devices * messagesPerDay * days)} messages\n\n`,
  );
  const first = results.find((r) => r.result)?.result;
  const volHeader = `volume ${first?.volumeUnit ?? ""}`.trim();
  const unitHeader = first?.unitName === "credits" ? "credits/msg" : "msgs/msg";
  const header = [
    "format",
    "mean B",
    "p95 B",
    "max B",
    "on air B",
    "over limit",
    unitHeader,
    "transmissions",
    volHeader,
    "cost (mean)",
    "cost (exact)",
    "cost (p95)",
    "cost (max)",
  ];
  const rows = results.map(({ format, result: r, error }) => {
    if (!r) return [format, "–", "–", "–", "–", "–", "–", "–", "–", `error: ${error}`];
    const e = r.exact!;
    return [
      format,
      r.mean.bytesPerMessage.toFixed(1),
      String(r.p95.bytesPerMessage),
      String(r.max.bytesPerMessage),
      // mean bytes sent per record: transport headers and fragments included
      (e.sentBytes / r.messages).toFixed(1),
      `${(e.shareOverLimit * 100).toFixed(1)} %`,
      (e.units / r.messages).toFixed(2),
      grouped(e.transmissions),
      grouped(r.mean.volume, 1),
      money(r.mean.cost, r.currency),
      money(e.cost, r.currency),
      money(r.p95.cost, r.currency),
      money(r.max.cost, r.currency),
    ];
  });
  write(table(header, rows));
  // a note every format shares (price, caps) is said once; the others name their format
  const priced = results.filter((r) => r.result);
  const notes: string[] = [];
  for (const { format, result } of priced)
    for (const w of result!.warnings) {
      const shared = priced.every((r) => r.result!.warnings.includes(w));
      const line = shared ? `note: ${w}` : `note (${format}): ${w}`;
      if (!notes.includes(line)) notes.push(line);
    }
  if (notes.length) write(`\n${notes.join("\n")}\n`);
  for (const { format, result, error } of results)
    if (result && error) write(`\n${format}: some records could not be encoded; first: ${error}\n`);
  if (first?.unitName === "credits") {
    for (const { format, result } of results) {
      const multi = result?.exact?.unitShares.filter((u) => u.units > 1) ?? [];
      if (multi.length)
        write(
          `${format}: ${multi.map((u) => `${(u.share * 100).toFixed(1)} % of messages cost ${u.units} credits`).join(", ")}\n`,
        );
    }
  }
}

type CostInputSizes = Parameters<typeof estimateCost>[0]["sizes"];

function parseBatchForm(v: string): BatchForm {
  if (!(BATCH_FORMS as readonly string[]).includes(v))
    throw new UsageError(`--form must be ${BATCH_FORMS.join(" or ")}, not "${v}"`);
  return v as BatchForm;
}

/** generated batch messages: how many per format and their seed (the log's records are readings, not messages) */
function batchSource(flags: { samples?: string | undefined; seed?: string | undefined }) {
  return {
    count: intFlag(flags.samples, "--samples", DEFAULT_BATCH_MESSAGES, 1, 100_000),
    seed: intFlag(flags.seed, "--seed", DEFAULT_BATCH_SEED, 0, 0xffffffff),
    file: null,
  };
}

function printPaperTable7(json: boolean): void {
  const rows = paperTable7();
  const fleet = PAPER_TABLE7_FLEET;
  if (json) {
    write(
      `${JSON.stringify({ schema: "satpayload.paper-table7/1", fleet, rules: PAPER_TABLE7_RULES, rows }, null, 2)}\n`,
    );
    return;
  }
  write(
    `Kumar et al. 2026, Table 7: ${grouped(fleet.devices)} devices × ${fleet.messagesPerDay}/day × ${fleet.days} days\n`,
  );
  write(`${PAPER_TABLE7_RULES}\n\n`);
  write(
    table(
      ["format", "bytes", "MB/month", "TN € @0.02/MB", "KB/month", "NTN € @0.183/KB"],
      rows.map((r) => [
        r.label,
        String(r.bytes),
        r.mbPerMonth.toFixed(1),
        `€${r.tnEur.toFixed(2)}`,
        grouped(r.kbPerMonth),
        `€${grouped(r.ntnEurShown)}`,
      ]),
    ),
  );
}
