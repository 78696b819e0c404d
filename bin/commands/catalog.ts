// `satpayload presets` / `formats` / `platforms`: what the other commands accept.
import { CODECS, FORMAT_IDS, parseLayout, PRESETS } from "#codecs";
import { describePrice, PLATFORMS } from "#planning";
import { parseFlags, table, write } from "./common.ts";

const JSON_FLAG = { json: { type: "boolean", default: false } } as const;

export async function presetsCommand(argv: string[]): Promise<void> {
  const { json } = parseFlags(argv, JSON_FLAG);
  const rows = PRESETS.map((p) => ({
    id: p.id,
    name: p.name,
    fields: parseLayout(p.layout).fields.length,
    description: p.description,
  }));
  if (json) return write(`${JSON.stringify({ schema: "satpayload.presets/1", presets: rows }, null, 2)}\n`);
  write(
    table(
      ["id", "name", "fields", "description"],
      rows.map((r) => [r.id, r.name, String(r.fields), r.description]),
      2,
    ),
  );
}

export async function formatsCommand(argv: string[]): Promise<void> {
  const { json } = parseFlags(argv, JSON_FLAG);
  const rows = FORMAT_IDS.map((id) => CODECS[id].info);
  if (json) return write(`${JSON.stringify({ schema: "satpayload.formats/1", formats: rows }, null, 2)}\n`);
  write(
    table(
      ["id", "label", "implementation"],
      rows.map((f) => [f.id, f.label, f.implementation]),
      3,
    ),
  );
}

export async function platformsCommand(argv: string[]): Promise<void> {
  const { json } = parseFlags(argv, JSON_FLAG);
  if (json) return write(`${JSON.stringify({ schema: "satpayload.platforms/1", platforms: PLATFORMS }, null, 2)}\n`);
  const bytes = (n: number | undefined) => (n === undefined ? "–" : String(n));
  write(
    table(
      ["id", "name", "uplink B", "downlink B", "price", "status"],
      PLATFORMS.map((p) => [
        p.id,
        p.name,
        bytes(p.uplinkBytes),
        bytes(p.downlinkBytes),
        `${describePrice(p.billing)}${p.priceBasis?.kind === "estimate" ? " (estimate)" : ""}`,
        p.status,
      ]),
      2,
    ),
  );
}
