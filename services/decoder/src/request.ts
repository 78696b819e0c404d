// What an ingest request names: layout, format, message id, device — from headers, the content type
// or a portal's JSON envelope. Refusals are IngestErrors with the reason.
import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";
import {
  BATCH_FORMS,
  base64ToBytes,
  type BatchForm,
  FORMAT_IDS,
  FORMAT_MODULES,
  type FormatId,
  isFormatId,
} from "#codecs";
import type { FidelityPolicy } from "#contracts/decoder/fidelity.ts";
import type { RouteBody } from "#contracts/decoder/routes.ts";
import { IngestError } from "./errors.ts";

export const HEADER = {
  layout: "x-satpayload-layout",
  format: "x-satpayload-format",
  messageId: "x-satpayload-message-id",
  device: "x-satpayload-device",
  /** the body is a batch message of the layout's readings in this form (columns | delta) */
  batch: "x-satpayload-batch",
} as const;

/** Standard media types name their format (each format module lists its own); the rest travel as octet-stream plus the format header. */
const MEDIA_TYPES: ReadonlyMap<string, FormatId> = new Map(
  FORMAT_IDS.flatMap((id) => FORMAT_MODULES[id].mediaTypes.map((type) => [type, id] as const)),
);

export interface IngestMeta {
  layoutRef: string | undefined;
  format: FormatId;
  messageId: string | undefined;
  device: string | undefined;
  /** a device route's own choice for values beyond the layout (else the decoder's) */
  fidelity?: Partial<FidelityPolicy> | undefined;
  /** a route of batch messages: the form its layout's readings travel in (one record per reading) */
  batch?: BatchForm | undefined;
}

const MESSAGE_ID = /^[A-Za-z0-9._~-]{1,128}$/;

/** The message id becomes the cin's resource name, so it must be one (and stay clear of la/ol). */
export function checkMessageId(id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  if (!MESSAGE_ID.test(id) || id === "la" || id === "ol")
    throw new IngestError(
      "bad_request",
      `message id "${id.slice(0, 80)}" must be 1–128 characters of A–Z a–z 0–9 . _ ~ - (it becomes the oneM2M resource name)`,
    );
  return id;
}

function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  const s = Array.isArray(v) ? v[0] : v;
  if (s === undefined || s.trim() === "") return undefined;
  const t = s.trim();
  // non-ASCII layout names ("Kinéis") travel percent-encoded in headers
  if (!t.includes("%")) return t;
  try {
    return decodeURIComponent(t);
  } catch {
    return t;
  }
}

/** a batch form named by a header, an envelope or a topic; undefined: one record per message */
function batchForm(v: string | undefined, where: string): BatchForm | undefined {
  if (v === undefined) return undefined;
  const form = v.trim().toLowerCase();
  if (!(BATCH_FORMS as readonly string[]).includes(form))
    throw new IngestError(
      "bad_request",
      `${where} "${v.slice(0, 40)}" is not a batch form (${BATCH_FORMS.join(" or ")}; leave it out for one record per message)`,
    );
  return form as BatchForm;
}

function formatName(v: string, where: string): FormatId {
  if (!isFormatId(v))
    throw new IngestError("unsupported_format", `${where} "${v}" is not a format (formats: ${FORMAT_IDS.join(", ")})`);
  return v;
}

export function mediaType(h: IncomingHttpHeaders): string | undefined {
  const ct = h["content-type"];
  if (ct === undefined || ct.trim() === "") return undefined;
  return ct.split(";")[0]!.trim().toLowerCase();
}

/** POST /ingest: the body is the message itself. */
export function binaryMeta(h: IncomingHttpHeaders): IngestMeta {
  const type = mediaType(h);
  const named = header(h, HEADER.format);
  const fromHeader = named !== undefined ? formatName(named.toLowerCase(), `${HEADER.format}`) : undefined;
  let format: FormatId;
  if (type === undefined || type === "application/octet-stream") {
    if (!fromHeader)
      throw new IngestError(
        "unsupported_format",
        `${type ?? "a body without Content-Type"} needs the ${HEADER.format} header (formats: ${FORMAT_IDS.join(", ")})`,
      );
    format = fromHeader;
  } else {
    const fromType = MEDIA_TYPES.get(type);
    if (!fromType)
      throw new IngestError(
        "unsupported_format",
        `Content-Type ${type} is not a payload format (use ${[...MEDIA_TYPES.keys()].join(", ")} or application/octet-stream with ${HEADER.format})`,
      );
    if (fromHeader && fromHeader !== fromType)
      throw new IngestError(
        "unsupported_format",
        `Content-Type ${type} says ${fromType} but ${HEADER.format} says ${fromHeader}`,
      );
    format = fromType;
  }
  const batch = batchForm(header(h, HEADER.batch), HEADER.batch);
  return {
    layoutRef: header(h, HEADER.layout),
    format,
    messageId: checkMessageId(header(h, HEADER.messageId)),
    device: header(h, HEADER.device),
    ...(batch ? { batch } : {}),
  };
}

const envelopeSchema = z.object({
  layout: z.string().min(1).max(256).optional(),
  format: z.string().min(1).max(32).optional(),
  data: z.string(),
  device: z.string().min(1).max(256).optional(),
  messageId: z.string().optional(),
  batch: z.string().max(32).optional(),
});

export interface Envelope extends IngestMeta {
  /** undefined: `data` is not base64 (a dead letter: the payload itself is unusable) */
  bytes: Uint8Array | undefined;
}

/** POST /ingest/base64: {"layout"?, "format", "data", "device"?, "messageId"?, "batch"?}, how satellite portals deliver. */
export function envelopeMeta(h: IncomingHttpHeaders, body: Buffer): Envelope {
  const type = mediaType(h);
  if (type !== undefined && type !== "application/json")
    throw new IngestError("unsupported_format", `/ingest/base64 takes an application/json envelope, not ${type}`);
  const parsed = envelopeSchema.safeParse(parseJsonBody(body, "the envelope"));
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new IngestError(
      "bad_request",
      `envelope ${i.path.join(".") || "body"}: ${i.message} (expected {"format", "data": base64, "layout"?, "device"?, "messageId"?, "batch"?})`,
    );
  }
  const e = parsed.data;
  const named = e.format ?? header(h, HEADER.format);
  if (named === undefined)
    throw new IngestError("unsupported_format", `the envelope names no format (formats: ${FORMAT_IDS.join(", ")})`);
  return {
    layoutRef: e.layout ?? header(h, HEADER.layout),
    format: formatName(named.toLowerCase(), "envelope format"),
    messageId: checkMessageId(e.messageId ?? header(h, HEADER.messageId)),
    device: e.device ?? header(h, HEADER.device),
    ...batchOf(e.batch ?? header(h, HEADER.batch), e.batch !== undefined ? "envelope batch" : HEADER.batch),
    bytes: base64Data(e.data),
  };
}

const batchOf = (v: string | undefined, where: string): { batch?: BatchForm } => {
  const batch = batchForm(v, where);
  return batch ? { batch } : {};
};

/** undefined when not base64; portals differ in the alphabet, so base64url is accepted too */
function base64Data(text: string): Uint8Array | undefined {
  const data = text.replace(/-/g, "+").replace(/_/g, "/");
  return base64ToBytes(data.length % 4 === 0 ? data : data + "=".repeat(4 - (data.length % 4)));
}

function parseJsonBody(body: Buffer, what: string): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch (e) {
    throw new IngestError("bad_request", `${what} is not JSON: ${(e as Error).message}`);
  }
}

/** what a device route fixes: the layout and format of everything posted to it */
export interface RouteTarget {
  path: string;
  layout: string;
  format: FormatId;
  precision?: FidelityPolicy["precision"] | undefined;
  range?: FidelityPolicy["range"] | undefined;
  batch?: BatchForm | undefined;
}

/** a device route's raw body: the message itself, whatever Content-Type the client sends */
export function routeBinaryMeta(h: IncomingHttpHeaders, route: RouteTarget): IngestMeta {
  return {
    layoutRef: route.layout,
    format: route.format,
    messageId: checkMessageId(header(h, HEADER.messageId)),
    device: header(h, HEADER.device),
  };
}

const isoDate = z
  .string()
  .max(64)
  .refine((s) => !Number.isNaN(Date.parse(s)), "is not a date");
const guid = z.string().min(1).max(128);
const portalSchema = z.object({
  data: z.string(),
  // the paper's receiver: {"data", "guid"}; Astrocast's push notification: deviceGuid, messageGuid, dates
  guid: guid.optional(),
  deviceGuid: guid.optional(),
  messageGuid: guid.optional(),
  messageId: guid.optional(),
  sequenceNumber: z.number().int().min(0).optional(),
  createdDate: isoDate.nullable().optional(),
  receivedDate: isoDate.nullable().optional(),
});

/**
 * A portal's push body on a device route (Astrocast: {"messageGuid", "deviceGuid", "createdDate",
 * "receivedDate", "data": base64, …}; the paper's receiver: {"data", "guid"}). The message GUID
 * (or device + sequence number) is the message id, so the portal's retries are recognised; dates
 * must be dates, but the record's time is the decoder's arrival time, as for every other route.
 */
export function portalEnvelopeMeta(h: IncomingHttpHeaders, body: Buffer, route: RouteTarget): Envelope {
  const type = mediaType(h);
  if (type !== undefined && type !== "application/json")
    throw new IngestError("unsupported_format", `${route.path} takes a portal's application/json body, not ${type}`);
  const parsed = portalSchema.safeParse(parseJsonBody(body, "the callback body"));
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new IngestError(
      "bad_request",
      `callback ${i.path.join(".") || "body"}: ${i.message} (expected {"data": base64, "guid"|"deviceGuid"?, "messageGuid"?, "sequenceNumber"?, "createdDate"?, "receivedDate"?})`,
    );
  }
  const e = parsed.data;
  const device = e.deviceGuid ?? e.guid ?? header(h, HEADER.device);
  const sequenced =
    e.sequenceNumber !== undefined && device !== undefined ? `${device}.${e.sequenceNumber}` : undefined;
  return {
    layoutRef: route.layout,
    format: route.format,
    messageId: checkMessageId(e.messageGuid ?? e.messageId ?? sequenced ?? header(h, HEADER.messageId)),
    device,
    bytes: base64Data(e.data),
  };
}

/**
 * What a device route's body holds: a portal's JSON push (route body `envelope`, or `auto` with
 * application/json unless the route's format is JSON) or the message itself.
 */
export function routeMessage(
  h: IncomingHttpHeaders,
  body: Buffer,
  route: RouteTarget & { body: RouteBody },
): { meta: IngestMeta; bytes: Uint8Array | undefined } {
  const portal =
    route.body === "envelope" ||
    (route.body === "auto" && mediaType(h) === "application/json" && route.format !== "json");
  const fidelity =
    route.precision !== undefined || route.range !== undefined
      ? { precision: route.precision, range: route.range }
      : undefined;
  const batch = route.batch;
  if (portal) {
    const e = portalEnvelopeMeta(h, body, route);
    return { meta: { ...e, fidelity, batch }, bytes: e.bytes };
  }
  return {
    meta: { ...routeBinaryMeta(h, route), fidelity, batch },
    bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
  };
}
