// The report's numbers as one tidy CSV (RFC 4180): section, format, platform, metric, x, value, unit.
import type { ReportModel } from "./model.ts";

type Cell = string | number | boolean | null | undefined;

function field(v: Cell): string {
  if (v === null || v === undefined) return "";
  const s = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_HEADER = ["section", "format", "platform", "metric", "x", "value", "unit"] as const;

export function reportCsv(m: ReportModel): string {
  const rows: Cell[][] = [[...CSV_HEADER]];
  const add = (section: string, format: string, platform: string, metric: string, x: Cell, value: Cell, unit: string) =>
    rows.push([section, format, platform, metric, x, value, unit]);
  const cur = m.fleet.currency;

  // the executive summary's pick first: what the board is asked to approve
  const rec = m.summary.recommendation;
  if (rec) {
    add("summary", rec.format, rec.platformId, "recommended_cost_per_year", "", rec.yearly, cur);
    if (rec.runnerUp)
      add(
        "summary",
        rec.runnerUp.format,
        rec.runnerUp.platformId,
        "runner_up_cost_per_year",
        "",
        rec.runnerUp.yearly,
        cur,
      );
  }
  for (const u of m.unpriced)
    add("summary", "", u.platformId, u.kind === "no-price" ? "no_price" : "no_rate", "", u.reason, "");

  for (const s of m.sizes) {
    for (const k of ["min", "mean", "p50", "p95", "p99", "max"] as const)
      add("sizes", s.format, "", k, "", s.stats.count ? s.stats[k] : null, "B");
    add("sizes", s.format, "", "samples", "", s.stats.count, "");
    if (s.savingVsJson !== null) add("sizes", s.format, "", "mean_saved_vs_json", "", s.savingVsJson, "B");
  }
  for (const r of m.fit.rows)
    for (const c of r.cells) {
      add("fit", r.format, c.platformId, "fits_max", "", c.fitsMax, "");
      add("fit", r.format, c.platformId, "fits_p95", "", c.fitsP95, "");
      add("fit", r.format, c.platformId, "share_over_limit", "", c.shareOver, "");
    }
  for (const c of m.fleet.cells) {
    add("cost", c.format, c.platformId, "monthly_mean_size", "", c.monthly.mean, cur);
    add("cost", c.format, c.platformId, "monthly_p95_size", "", c.monthly.p95, cur);
    add("cost", c.format, c.platformId, "monthly_max_size", "", c.monthly.max, cur);
    add("cost", c.format, c.platformId, "monthly_every_message", "", c.monthly.exact, cur);
    add("cost", c.format, c.platformId, "total_period", "", c.total, cur);
    add("cost", c.format, c.platformId, "saving_vs_json_monthly", "", c.savingVsJson, cur);
    add("cost", c.format, c.platformId, `${c.unitName}_per_month`, "", c.units, "");
    add("cost", c.format, c.platformId, "volume_per_month", "", c.volume, c.volumeUnit);
    add("cost", c.format, c.platformId, "messages_per_record", "", c.fragmentsPerRecord, "");
    add("cost", c.format, c.platformId, "transport_stack", "", c.stack, "");
    add("cost", c.format, c.platformId, "on_air_bytes_mean", "", c.onAir.mean, "B");
    add("cost", c.format, c.platformId, "on_air_bytes_p95", "", c.onAir.p95, "B");
    add("cost", c.format, c.platformId, "on_air_bytes_max", "", c.onAir.max, "B");
    add("cost", c.format, c.platformId, "transport_bytes_per_message_mean", "", c.onAir.mean - c.sizes.mean, "B");
    for (const u of c.unitShares)
      add(
        "cost",
        c.format,
        c.platformId,
        c.unitName === "credits" ? "share_of_messages_by_credits" : "share_of_records_by_messages",
        u.units,
        u.share,
        "",
      );
  }
  if (m.budget) {
    const b = m.budget;
    add("budget", "", b.platformId, "reading_interval", "", b.whatIf.intervalSeconds, "s");
    add("budget", "", b.platformId, "battery_capacity", "", b.whatIf.device.batteryMah, "mAh");
    if (b.saving)
      add(
        "budget",
        b.saving.format,
        b.platformId,
        "battery_swaps_saved_vs_json",
        "",
        b.saving.saved,
        b.saving.currency,
      );
    for (const r of b.rows) {
      add("budget", r.format, r.platformId, "bytes_on_air_per_message", "", r.bytesOnAir, "B");
      add("budget", r.format, r.platformId, "messages_per_record", "", r.messagesPerRecord, "");
      add("budget", r.format, r.platformId, "readings_per_message", "", r.readingsPerMessage, "");
      if (!r.budget) {
        add("budget", r.format, r.platformId, "no_budget", "", r.error, "");
        continue;
      }
      const d = r.budget;
      add("budget", r.format, r.platformId, "battery_life", "", d.batteryLifeYears, "years");
      add("budget", r.format, r.platformId, "airtime_per_message", "", d.airtimePerMessageS, "s");
      add("budget", r.format, r.platformId, "airtime_per_day", "", d.airtimePerDayS, "s");
      add("budget", r.format, r.platformId, "energy_per_message", "", d.energyPerMessageJ.total, "J");
      for (const k of ["radio", "sensors", "sleep", "total"] as const)
        add("budget", r.format, r.platformId, `energy_per_reading_${k}`, "", d.energyPerReadingJ[k], "J");
      for (const l of d.limits) {
        add("budget", r.format, r.platformId, `limit_${l.id}_used`, "", l.usedS, "s");
        add("budget", r.format, r.platformId, `limit_${l.id}_allowed`, "", l.allowedS, "s");
        add("budget", r.format, r.platformId, `limit_${l.id}_ok`, "", l.ok, "");
      }
    }
  }
  for (const [series, data, unit] of [
    ["cost_by_fleet_size", m.fleet.byFleet, "devices"],
    ["cost_by_interval", m.fleet.byInterval, "minutes"],
  ] as const)
    for (const [platform, points] of Object.entries(data))
      for (const p of points)
        for (const [format, v] of Object.entries(p.values))
          add(series, format, platform, `monthly_cost_at_${unit}`, p.x, v, cur);
  for (const f of m.fragmentation) {
    const p = f.plan;
    add("fragmentation", f.format, p.platformId, "messages_per_record_mean", "", p.fragments.mean, "");
    add("fragmentation", f.format, p.platformId, "messages_per_record_max", "", p.fragments.max, "");
    add("fragmentation", f.format, p.platformId, "header_bytes_per_record", "", p.overhead.bytesPerRecord, "B");
    add("fragmentation", f.format, p.platformId, "bytes_on_air_per_record", "", p.sentBytesPerRecord, "B");
    add("fragmentation", f.format, p.platformId, "transport_bytes_per_record", "", p.transportBytesPerRecord, "B");
    add(
      "fragmentation",
      f.format,
      p.platformId,
      "extra_cost_monthly",
      "",
      p.cost.extra,
      p.cost.fragmented.currency ?? "",
    );
    if (p.queue)
      add("fragmentation", f.format, p.platformId, "queue_slots_busy_max", "", p.queue.occupancy.max, "slots");
  }
  if (m.table7)
    for (const r of m.table7.rows) {
      add("paper_table7", r.label, "nbiot-tn", "mb_per_month", r.bytes, r.mbPerMonth, "MB (2^20 B)");
      add("paper_table7", r.label, "nbiot-tn", "cost", r.bytes, r.tnEur, "EUR");
      add("paper_table7", r.label, "astrocast", "kb_per_month", r.bytes, r.kbPerMonth, "KB (2^10 B)");
      add("paper_table7", r.label, "astrocast", "cost", r.bytes, r.ntnEur, "EUR");
    }
  return rows.map((r) => r.map(field).join(",")).join("\r\n") + "\r\n";
}
