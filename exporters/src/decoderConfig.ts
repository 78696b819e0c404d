// The decoder service's layout config: one JSON file telling it which devices send which layout in
// which wire format. The service loads it with parseDecoderConfig (the same validation as here).
import { z } from "zod";
import { codecFor, FORMAT_IDS, type FormatId, type Layout, LayoutError, parseLayout } from "#codecs";
import { formatChoice, formatLabels, option } from "./options.ts";
import type { Exporter, ExportFile } from "./types.ts";

export const DECODER_CONFIG_SCHEMA = "satpayload.decoder-config/1";

/** Device keys are matched literally against an uplink's device id (DevEUI, Astrocast terminal id …) or "*". */
const deviceKey = z.string().regex(/^(?:\*|[A-Za-z0-9._:-]{1,128})$/, "must be * or 1–128 of A–Z a–z 0–9 . _ : -");

export const decoderConfigSchema = z.object({
  schema: z.literal(DECODER_CONFIG_SCHEMA),
  /** which devices this entry decodes */
  deviceKey,
  /** the wire format the devices send */
  format: z.enum(FORMAT_IDS),
  /** the *.satlayout.json document */
  layout: z.unknown(),
});

export interface DecoderConfig {
  schema: typeof DECODER_CONFIG_SCHEMA;
  deviceKey: string;
  format: FormatId;
  layout: Layout;
}

export const DEFAULT_DEVICE_KEY = "*";

/**
 * The config object for a layout; throws LayoutError when the layout cannot be carried in the format
 * (the service would fail on start otherwise).
 */
export function decoderConfig(layout: Layout, opts: { deviceKey?: string; format?: FormatId } = {}): DecoderConfig {
  const format = opts.format ?? "protobuf";
  const key = opts.deviceKey ?? DEFAULT_DEVICE_KEY;
  const checked = deviceKey.safeParse(key);
  if (!checked.success) throw new LayoutError([{ path: "deviceKey", message: checked.error.issues[0]!.message }]);
  codecFor(layout, format);
  return { schema: DECODER_CONFIG_SCHEMA, deviceKey: key, format, layout };
}

/** Validates a config read from disk: shape, layout (parseLayout) and that the format can carry it. */
export function parseDecoderConfig(json: unknown): DecoderConfig {
  const parsed = decoderConfigSchema.safeParse(json);
  if (!parsed.success)
    throw new LayoutError(parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })));
  let layout: Layout;
  try {
    layout = parseLayout(parsed.data.layout);
  } catch (e) {
    if (e instanceof LayoutError)
      throw new LayoutError(e.issues.map((i) => ({ ...i, path: i.path ? `layout.${i.path}` : "layout" })));
    throw e;
  }
  return decoderConfig(layout, { deviceKey: parsed.data.deviceKey, format: parsed.data.format });
}

export function generateDecoderConfig(
  layout: Layout,
  opts: { deviceKey?: string; format?: FormatId } = {},
): ExportFile[] {
  const cfg = decoderConfig(layout, opts);
  return [
    {
      path: `decoder-service/${layout.message}.decoder.json`,
      language: "json",
      content: `${JSON.stringify(cfg, null, 2)}\n`,
    },
  ];
}

export const decoderConfigOptions = z.object({
  // "serviceFormat": a plain "format" option belongs to the firmware export (what the device encodes)
  serviceFormat: option(formatChoice(FORMAT_IDS).default("protobuf"), {
    label: "Devices send",
    description: "The wire format the devices send, which the decoder service decodes.",
    flag: "service-format",
    choiceLabels: formatLabels(FORMAT_IDS),
  }),
  deviceKey: option(deviceKey.default(DEFAULT_DEVICE_KEY), {
    label: "Device key",
    description: "Matched against the uplink's device id (DevEUI, terminal id …); * matches every device.",
    flag: "device-key",
  }),
});

export const decoderConfigExporter: Exporter<typeof decoderConfigOptions> = {
  id: "decoder-config",
  label: "Decoder service config",
  description:
    "The JSON file the decoder service loads: the layout, the wire format the devices send and which devices it applies to.",
  options: decoderConfigOptions,
  generate: (layout, o) => generateDecoderConfig(layout, { format: o.serviceFormat, deviceKey: o.deviceKey }),
};
