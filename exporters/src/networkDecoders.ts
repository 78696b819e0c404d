// JavaScript payload decoders for LoRaWAN network servers (The Things Stack v3, ChirpStack v4 and the
// LoRa Alliance TS013 payload codec API): bytes from our Struct, bit-packed or SBE encoders in, the
// decoded record in its plain JSON form (json/record.ts) out. Self-contained ES5, no require.
import { z } from "zod";
import { type Layout, LayoutError } from "#codecs";
import { decoderProgram, type DecoderFormat, PROGRAM_OF } from "./net/program.ts";
import { RUNTIME_BITS, RUNTIME_BYTES, RUNTIME_COMMON, RUNTIME_SBE, RUNTIME_STRUCT } from "./net/runtime.ts";
import { flaggedFormats, formatChoice, formatLabels, option } from "./options.ts";
import type { Exporter, ExportFile } from "./types.ts";

export type { DecoderFormat } from "./net/program.ts";

/** The formats flagged `exports.networkDecoder`, in registry order. */
export const DECODER_FORMATS = flaggedFormats("networkDecoder", PROGRAM_OF);

export const NETWORK_SERVERS = ["ttn", "chirpstack", "ts013"] as const;
export type NetworkServer = (typeof NETWORK_SERVERS)[number];

/** The Things Stack refuses uplink formatter scripts longer than this many characters. */
export const TTN_MAX_SOURCE_CHARS = 40960;
/** ChirpStack v4 stops a codec function after this many milliseconds. */
export const CHIRPSTACK_BUDGET_MS = 100;

const SERVER_INFO: Record<NetworkServer, { dir: string; title: string; contract: string[] }> = {
  ttn: {
    dir: "ttn-v3",
    title: "The Things Stack v3 uplink payload formatter (JavaScript)",
    contract: [
      "decodeUplink(input): input.bytes (array of 0..255), input.fPort",
      "returns { data, warnings, errors }: errors non-empty when the bytes are not a valid message",
    ],
  },
  chirpstack: {
    dir: "chirpstack-v4",
    title: "ChirpStack v4 device-profile codec (JavaScript)",
    contract: [
      "decodeUplink(input): input.bytes, input.fPort, input.variables (not used)",
      "returns { data }; throws an Error (logged by ChirpStack as a codec error) when the bytes are not a valid message",
    ],
  },
  ts013: {
    dir: "ts013",
    title: "LoRa Alliance TS013-1.0.0 payload codec (decodeUplink)",
    contract: [
      "decodeUplink(input): input.bytes, input.fPort, input.recvTime (not used)",
      "returns { data, warnings } or { errors }; no encodeDownlink/decodeDownlink: the layout describes an uplink only",
    ],
  },
};

/** The folder of a server's decoders in the export ("ttn-v3"). */
export const serverDir = (s: NetworkServer): string => SERVER_INFO[s].dir;

const ENTRY: Record<NetworkServer, string> = {
  ttn: `function decodeUplink(input) {
  try { return { data: decodePayload(input.bytes), warnings: [], errors: [] }; }
  catch (e) { return { data: {}, warnings: [], errors: [String(e && e.message || e)] }; }
}`,
  chirpstack: `function decodeUplink(input) {
  return { data: decodePayload(input.bytes) };
}`,
  ts013: `function decodeUplink(input) {
  try { return { data: decodePayload(input.bytes), warnings: [] }; }
  catch (e) { return { errors: [String(e && e.message || e)] }; }
}`,
};

/** decodePayload: checks the bytes, then returns `result` (an expression of the decoded wire record `rec`). */
const commonEntry = (result: string) => `function decodePayload(bytes) {
  if (!bytes || typeof bytes.length !== "number") fail("input.bytes must be an array of bytes");
  for (var i = 0; i < bytes.length; i++) { var x = bytes[i]; if (typeof x !== "number" || x < 0 || x > 255 || x % 1 !== 0) fail("input.bytes[" + i + "] is not a byte"); }
  var rec = decodeBytes(bytes);
  return ${result};
}`;

const FORMAT_RUNTIME: Record<DecoderFormat, string> = {
  struct: RUNTIME_BYTES + RUNTIME_STRUCT,
  sbe: RUNTIME_BYTES + RUNTIME_SBE,
  bitpacked: RUNTIME_BITS,
};

const FORMAT_LABEL: Record<DecoderFormat, string> = { struct: "Struct", sbe: "SBE", bitpacked: "bit-packed" };

/** ES5 string literals may not hold U+2028/U+2029 (JSON may). */
function jsLiteral(v: unknown): string {
  return JSON.stringify(v)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function comment(text: string): string {
  return text.replace(/\*\//g, "* /").replace(/[\u0000-\u001f\u2028\u2029]/g, " ");
}

/** The decoder source for one server and one wire format. */
export function networkDecoderSource(layout: Layout, format: DecoderFormat, server: NetworkServer): string {
  return decoderSource(layout, format, server, {
    program: decoderProgram(layout, format),
    result: "output(P.fs, rec)",
    what: [`${comment(layout.package)}.${comment(layout.message)} in the ${FORMAT_LABEL[format]} format.`],
    data: "the record",
  });
}

/**
 * A decoder around a program: `extra` runtime after the format's, `result` the expression decodePayload
 * returns of the decoded wire record `rec` (the batch decoders turn it into readings, batch/netBatch.ts).
 */
export function decoderSource(
  layout: Layout,
  format: DecoderFormat,
  server: NetworkServer,
  o: { program: object; result: string; what: string[]; data: string; extra?: string },
): string {
  const info = SERVER_INFO[server];
  const body = [
    `var P = ${jsLiteral(o.program)};`,
    RUNTIME_COMMON.trim(),
    FORMAT_RUNTIME[format].trim(),
    ...(o.extra ? [o.extra.trim()] : []),
    commonEntry(o.result),
    ENTRY[server],
    "",
  ].join("\n");
  const head = [
    "/*",
    ` * ${comment(info.title)}`,
    ` * ${comment(layout.name)}: ${o.what.map(comment).join("\n * ")}`,
    ...info.contract.map((l) => ` * ${l}`),
    ` * data is ${o.data} in its text representation as JSON: 64-bit integers beyond 2^53 as decimal`,
    ' * strings, NaN/Infinity as "NaN"/"Infinity", bytes as base64 (see the JSON Schema export).',
    " * Generated by SatPayload Studio from the layout: change the layout, not this file.",
    " */",
    "",
  ].join("\n");
  return head + body;
}

export function generateNetworkDecoders(
  layout: Layout,
  opts: { formats?: readonly DecoderFormat[]; servers?: readonly NetworkServer[] } = {},
): ExportFile[] {
  const explicit = opts.formats !== undefined;
  const files: ExportFile[] = [];
  for (const format of opts.formats ?? DECODER_FORMATS) {
    let sources: string[];
    try {
      sources = (opts.servers ?? NETWORK_SERVERS).map((s) => networkDecoderSource(layout, format, s));
    } catch (e) {
      // by default, formats the layout cannot be expressed in are left out rather than failing the export
      if (e instanceof LayoutError && !explicit) continue;
      throw e;
    }
    (opts.servers ?? NETWORK_SERVERS).forEach((s, i) =>
      files.push({
        path: `network/${SERVER_INFO[s].dir}/${layout.message}-${format}.js`,
        language: "js",
        content: sources[i]!,
      }),
    );
  }
  return files;
}

export const networkDecodersOptions = z.object({
  servers: option(
    z
      .array(z.enum(NETWORK_SERVERS))
      .min(1)
      .default([...NETWORK_SERVERS]),
    {
      label: "Network servers",
      description: "The LoRaWAN network servers to write a decoder for.",
      flag: "network-servers",
      choiceLabels: { ttn: "TTN v3", chirpstack: "ChirpStack v4", ts013: "TS013" },
    },
  ),
  // no default: left out, the formats the layout cannot be written in are skipped; named, they must all work
  decoderFormats: option(z.array(formatChoice(DECODER_FORMATS)).min(1).optional(), {
    label: "Decoders for the bytes of",
    description: "The wire formats the decoders read.",
    flag: "network-formats",
    choiceLabels: formatLabels(DECODER_FORMATS),
    unset: "every one the layout can be written in",
  }),
});

export const networkDecodersExporter: Exporter<typeof networkDecodersOptions> = {
  id: "network-decoders",
  label: "LoRaWAN network decoders",
  description:
    "TTN v3, ChirpStack v4 and TS013 JavaScript decoders for the Struct, bit-packed and SBE bytes, returning the record as JSON.",
  options: networkDecodersOptions,
  generate: (layout, { servers, decoderFormats }) =>
    generateNetworkDecoders(layout, { servers, ...(decoderFormats ? { formats: decoderFormats } : {}) }),
};
