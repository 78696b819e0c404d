// The SCHC rule set of the layout's CoAP uplink (RFC 8724 / 8824) as the context JSON microschc loads
// (`microschc.rfc8724extras.Context.from_json`), with a Python script that compresses and decompresses
// with it and a README of the rule, field by field, for the firmware and gateway engineers. The rule is
// the one planning prices on the Bytes on air panel (#codecs/plans), not a copy.
import { z } from "zod";
import type { Layout } from "#codecs";
import {
  coapUriPath,
  parseIpv6,
  SCHC_DEFAULTS,
  SchcError,
  schcResidueBits,
  schcUplinkRule,
  type SchcParams,
  type SchcRule,
  type SchcRuleField,
} from "#codecs/plans";
import { option } from "./options.ts";
import { NO_COMPRESSION_RULE_ID, schcCFiles, schcCPrefix } from "./schcC.ts";
import type { Exporter, ExportFile } from "./types.ts";

const ipv6 = (def: string) =>
  z
    .string()
    .default(def)
    .superRefine((v, ctx) => {
      try {
        parseIpv6(v);
      } catch (e) {
        if (!(e instanceof SchcError)) throw e;
        ctx.addIssue({ code: "custom", message: e.message });
      }
    });
const port = (def: number) => z.int().min(0).max(65535).default(def);

export const schcRulesOptions = z.object({
  schcDeviceAddress: option(ipv6(SCHC_DEFAULTS.deviceAddress), {
    label: "Device IPv6 address",
    description: "The device's IPv6 address, which the rule elides (sent as nothing, restored by the gateway).",
    flag: "schc-device-address",
  }),
  schcServerAddress: option(ipv6(SCHC_DEFAULTS.serverAddress), {
    label: "Server IPv6 address",
    description: "The IPv6 address of the server the device posts to.",
    flag: "schc-server-address",
  }),
  schcDevicePort: option(port(SCHC_DEFAULTS.devicePort), {
    label: "Device UDP port",
    description: "The device's UDP source port (5683, CoAP's, unless the device binds another).",
    flag: "schc-device-port",
  }),
  schcServerPort: option(port(SCHC_DEFAULTS.serverPort), {
    label: "Server UDP port",
    description: "The server's CoAP port.",
    flag: "schc-server-port",
  }),
});

type SchcOptions = z.output<typeof schcRulesOptions>;

/** The rule parameters of a layout under the export's options. */
export function schcParamsFor(layout: Layout, o: Partial<SchcOptions> = {}): SchcParams {
  return {
    ...SCHC_DEFAULTS,
    uriPath: coapUriPath(layout.name),
    deviceAddress: o.schcDeviceAddress ?? SCHC_DEFAULTS.deviceAddress,
    serverAddress: o.schcServerAddress ?? SCHC_DEFAULTS.serverAddress,
    devicePort: o.schcDevicePort ?? SCHC_DEFAULTS.devicePort,
    serverPort: o.schcServerPort ?? SCHC_DEFAULTS.serverPort,
  };
}

/** microschc's Buffer JSON: big-endian bytes, the value right-aligned ("left" padding), length in bits. */
function buffer(value: bigint, bits: number) {
  const bytes = Math.ceil(bits / 8);
  return { content: bytes === 0 ? "" : value.toString(16).padStart(bytes * 2, "0"), length: bits, padding: "left" };
}

function fieldJson(f: SchcRuleField) {
  return {
    id: f.id,
    length: f.bits,
    position: f.position,
    // an uplink rule: the device compresses, the gateway decompresses (RFC 8724 §7, direction "Up")
    direction: "Up",
    target_value: f.target ? buffer(f.target.value, f.target.bits) : buffer(0n, 0),
    matching_operator: f.mo,
    compression_decompression_action: f.cda,
  };
}

// The rule id of packets the compression rule does not match (another Message ID range, no payload, a
// different path): sent whole behind it (RFC 8724's no-compression rule), never dropped. The C shares it.
export { NO_COMPRESSION_RULE_ID };

/** The context microschc's ContextManager loads: the compression rule, then the no-compression rule. */
export function microschcContext(rule: SchcRule, name: string) {
  return {
    id: name,
    description: "SatPayload Studio: CoAP CON POST over UDP/IPv6 from the device, RFC 8724 / 8824",
    interface_id: "uplink",
    parser_id: "IPv6-UDP-CoAP",
    ruleset: [
      {
        id: buffer(BigInt(rule.ruleId.value), rule.ruleId.bits),
        nature: "compression",
        field_descriptors: rule.fields.map(fieldJson),
      },
      { id: buffer(BigInt(NO_COMPRESSION_RULE_ID.value), NO_COMPRESSION_RULE_ID.bits), nature: "no-compression" },
    ],
  };
}

const hex = (f: SchcRuleField) =>
  f.target
    ? `0x${f.target.value.toString(16)}${f.mo === "most-significant-bits" ? ` (${f.target.bits} MSB)` : ""}`
    : "–";

function readme(layout: Layout, p: SchcParams, rule: SchcRule, file: string, cPrefix: string): string {
  const residue = schcResidueBits(rule);
  const rows = rule.fields.map(
    (f) =>
      `| ${f.id}${f.position ? ` #${f.position}` : ""} | ${f.bits} | ${f.mo} | ${f.cda} | ${hex(f)} | ${
        f.cda === "least-significant-bits" ? f.bits - (f.target?.bits ?? 0) : 0
      } |`,
  );
  return [
    `# SCHC rule set: ${layout.name}`,
    "",
    `\`${file}\` is the Static Context Header Compression rule (RFC 8724; CoAP per RFC 8824) for the`,
    `device's uplink: a CoAP CON POST to \`/${p.uriPath.join("/")}\` over UDP/IPv6, from`,
    `[${p.deviceAddress}]:${p.devicePort} to [${p.serverAddress}]:${p.serverPort}. It is in the context format of`,
    "[microschc](https://pypi.org/project/microschc/) (`Context.from_json`); `schc_apply.py` loads it.",
    "",
    `On the link a message is the rule id (${rule.ruleId.bits} bits, value ${rule.ruleId.value}), ${residue} bits of`,
    "residue and the payload, padded with zero bits to a whole byte (RFC 8724 §9): " +
      `${Math.ceil((rule.ruleId.bits + residue) / 8)} B instead of the 40 B IPv6, 8 B UDP and CoAP header.`,
    "",
    "## What the device must keep constant",
    "",
    `- The Message ID and the Token change only in their ${p.lsbBits} low bits (a counter): the rule matches`,
    "  the high bits (most-significant-bits) and sends the low ones (least-significant-bits, RFC 8724 §7.4).",
    "  A packet whose high bits differ does not match and must go uncompressed.",
    `- Hop Limit ${p.hopLimit}, Traffic Class 0, Flow Label 0 (RFC 8724 §10).`,
    "- Lengths and the UDP checksum are computed by the decompressor (RFC 8724 §10).",
    "- The rule matches messages with a payload (it elides the 0xFF payload marker).",
    `- A packet the rule does not match goes whole behind rule id ${NO_COMPRESSION_RULE_ID.value} (${NO_COMPRESSION_RULE_ID.bits} bits), the`,
    "  no-compression rule: it costs one byte more than the uncompressed packet, and nothing is lost.",
    "",
    "## Fields",
    "",
    "| field | bits | matching operator | action | target value | residue bits |",
    "|---|---|---|---|---|---|",
    ...rows,
    "",
    "## C compressor and decompressor",
    "",
    `\`${cPrefix}.h\` / \`${cPrefix}.c\` are this rule in C99 (integer-only, no malloc; build with any C99`,
    "compiler, e.g. `gcc -std=c99 -c " + cPrefix + ".c`):",
    "",
    `- \`${cPrefix}_compress(packet, len, out, cap)\`: the IPv6/UDP/CoAP packet → rule id, residue and`,
    "  payload, zero-padded to a byte; a packet the rule does not match goes whole behind rule id 0",
    "  (`cap` = `len + 1` is always enough). It also leaves uncompressed a packet whose lengths or UDP",
    "  checksum are not the ones the decompressor computes, so no packet comes back changed.",
    `- \`${cPrefix}_decompress(schc, len, out, cap)\`: the packet again, lengths and UDP checksum`,
    `  computed (\`cap\` ≥ ${cPrefix.toUpperCase()}_HEADER_BYTES + payload).`,
    `- Both return the bytes written, or a negative \`${cPrefix.toUpperCase()}_ERR_*\`: \`SPACE\` (output too small),`,
    "  `TRUNCATED` (a SCHC packet shorter than its rule, or empty), `RULE` (unknown rule id), `ARG`.",
    "",
    "## Fragmentation",
    "",
    "A SCHC packet larger than the link's message size is fragmented (RFC 8724 §8), and the studio",
    "prices it that way with a SCHC stack: `coap-schc` is ACK-on-Error with RFC 9011's uplink",
    "parameters (window 2 bits, FCN 6 bits, WINDOW_SIZE 63, 10-byte tiles, 32-bit RCS), the rule id",
    "in-band: 2 B per fragment plus the 4 B RCS in the All-1, and a 2-byte SCHC ACK on the downlink;",
    "`coap-schc-noack` is No-ACK (1-bit FCN, 2 B per fragment, the RCS in the All-1). These files hold",
    "the compression rule only: microschc and the C here implement no fragmentation.",
    "",
    "## Where microschc differs from RFC 8824",
    "",
    "RFC 8824 identifies a CoAP option by its number (Uri-Path, with a position). microschc's parser",
    "lists each option as its delta, length and value fields (`CoAP:Option Delta`, `CoAP:Option Length`,",
    "`CoAP:Option Value`, with the option's position), so the rule names them that way. The elided bytes",
    "and the residue are the same: every option field is equal / not-sent.",
    "",
  ].join("\n");
}

const PYTHON = `"""Compress and decompress with the SCHC rule set exported by SatPayload Studio (microschc).

    pip install microschc
    python schc_apply.py RULES.json < packets.json

stdin: a JSON list of hex strings, each an IPv6/UDP/CoAP packet as the device would send it.
stdout: a JSON list of {"schc": hex of the SCHC packet, "bits": its length before padding,
"restored": hex of the packet the gateway rebuilds from it}.
"""
import json
import sys

from microschc.binary.buffer import Buffer
from microschc.manager.manager import ContextManager
from microschc.rfc8724 import DirectionIndicator
from microschc.rfc8724extras import Context


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        manager = ContextManager(Context.from_json(f.read()))
    out = []
    for text in json.load(sys.stdin):
        raw = bytes.fromhex(text)
        schc = manager.compress(Buffer(content=raw, length=8 * len(raw)), direction=DirectionIndicator.UP)
        restored = manager.decompress(schc)
        out.append({"schc": schc.content.hex(), "bits": schc.length, "restored": restored.content.hex()})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
`;

export function generateSchcRules(layout: Layout, o: Partial<SchcOptions> = {}): ExportFile[] {
  const params = schcParamsFor(layout, o);
  const rule = schcUplinkRule(params);
  const file = `${layout.message}.schc.json`;
  return [
    {
      path: `schc/${file}`,
      language: "json",
      content: `${JSON.stringify(microschcContext(rule, layout.message), null, 2)}\n`,
    },
    { path: "schc/schc_apply.py", language: "python", content: PYTHON },
    ...schcCFiles(params, layout.message),
    {
      path: "schc/README.md",
      language: "md",
      content: readme(layout, params, rule, file, schcCPrefix(layout.message)),
    },
  ];
}

export const schcRulesExporter: Exporter<typeof schcRulesOptions> = {
  id: "schc-rules",
  label: "SCHC rule set (RFC 8724)",
  description:
    "The header compression rule of the CoAP/UDP/IPv6 uplink for microschc, a Python script that applies it, a C99 compressor/decompressor of it and the rule field by field.",
  options: schcRulesOptions,
  generate: (layout, o) => generateSchcRules(layout, o),
};
