// What the paper author's two dashboards read from his receiver, endpoint by endpoint, written from
// their public script.js (Natdev15/IoT_Payload_Optimization_Natesh_Masters_Thesis_2025,
// Protobuf_Service_with_Dashboard/nodejs_receiver/public, and Natdev15/dashboard-maritime, public):
// the names and the types each one uses (a value it parseFloat()s is text, one it hands to
// new Date() must parse as a date). Shapes only; every other key is allowed.
import { z } from "zod";

const date = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "must parse as a date");
/** read with parseFloat / shown as text: the paper's record carries every value as a string */
const text = z.string();
const count = z.number().int().nonnegative();

/** one row as the thesis dashboard's table and details dialog read it (flat, his SQLite columns) */
export const thesisRow = z.looseObject({
  iso6346: text,
  msisdn: text,
  time: text,
  latitude: text,
  longitude: text,
  altitude: text,
  speed: text,
  heading: text,
  gnss: text,
  nsat: text,
  hdop: text,
  temperature: text,
  humidity: text,
  pressure: text,
  acc: text,
  bat_soc: text,
  door: text,
  rssi: text,
  cgi: text,
  ble_m: text,
  created_at: date,
  processed_at: date,
  // shown as "Sent" / "Pending" by truthiness; his receiver gives SQLite's 0/1
  sent_to_mobius: z.union([z.literal(0), z.literal(1)]),
});

/** one entry as dashboard-maritime's table and history read it */
export const maritimeEntry = z.looseObject({
  containerId: z.string(),
  timestamp: date,
  data: z.looseObject({
    temperature: text,
    "bat-soc": text,
    latitude: text,
    longitude: text,
    humidity: text,
    pressure: text,
  }),
});

export const READS = {
  /** both dashboards: fetch('/api/containers?limit=100') */
  containers: z.looseObject({ containers: z.array(thesisRow.and(maritimeEntry)) }),
  /** thesis: data.container (404 → "Container not found"); maritime: data.history */
  container: z.looseObject({ container: thesisRow, history: z.array(maritimeEntry) }),
  /** the thesis receiver's /api/containers/:id/history */
  history: z.looseObject({ history: z.array(thesisRow) }),
  /** thesis: database.total_records, unique_containers, sent_to_mobius, avg_compression, inbound.queueSize, inbound.uptimeMs; maritime: database.total_records, unique_containers, totalRequests, successfulWrites, writeQueue.queueLength, uptime */
  stats: z.looseObject({
    database: z.looseObject({
      total_records: count,
      unique_containers: count,
      sent_to_mobius: count,
      avg_compression: z.number().nonnegative(),
    }),
    inbound: z.looseObject({ queueSize: count, uptimeMs: count }),
    totalRequests: count,
    successfulWrites: count,
    writeQueue: z.looseObject({ queueLength: count }),
    uptime: count,
  }),
  /** thesis: fetch('/api/activity?minutes=120'): activity[].hour (new Date), .count; totalContainersInPeriod */
  activity: z.looseObject({
    activity: z.array(z.looseObject({ hour: date, count })),
    totalContainersInPeriod: count,
  }),
  /** the thesis receiver's /api/search?q= */
  search: z.looseObject({
    containers: z.array(
      z.looseObject({ iso6346: text, msisdn: text.nullable(), last_update: date, record_count: count }),
    ),
  }),
} as const;
