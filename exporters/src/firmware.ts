// The ESP32 firmware project (PlatformIO + Arduino) for a layout: simulated sensors from the sample
// models, the chosen format's encoder (nanopb for Protobuf, the generated C packers otherwise), the
// Astronode S uplink over the shared C framing of firmware/astronode-c, and a host build of the same
// portable C. exporters/test/c/firmware.test.ts builds that host part and runs it against the
// studio's module simulator.
import { z } from "zod";
import type { Layout } from "#codecs";
import { bitpackedPlan, planStruct } from "#codecs/plans";
import { ASTRONODE_C, ASTRONODE_H } from "#firmware/templates/astronodeC.generated.ts";
import {
  HOST_MAIN_C,
  hostMakefile,
  MAIN_CPP,
  platformioIni,
  readme,
  type ProjectParams,
} from "#firmware/templates/project.ts";
import { SIM_C, SIM_H } from "#firmware/templates/sim.ts";
import { UPLINK_C, UPLINK_H } from "#firmware/templates/uplink.ts";
import { cHeader } from "./c/emit.ts";
import { cModel, type CModel } from "./c/model.ts";
import { printCode } from "./c/printC.ts";
import { RUNTIME_HEADER } from "./c/runtime.ts";
import { simCode } from "./c/simC.ts";
import { generatedNote, typesHeaderName } from "./c/typesHeader.ts";
import { bitsNames, generateCBitpacked } from "./cBitpacked.ts";
import { generateCStruct, generateCStructZlib, structNames, zlibBound } from "./cStruct.ts";
import { generateNanopb, generateNanopbPacker, nanopbNames } from "./nanopb.ts";
import { flaggedFormats, formatChoice, formatLabels, option, parseOptions } from "./options.ts";
import type { ExportFile, Exporter } from "./types.ts";

interface Codec {
  label: string;
  /** files of the encoder under src/ (runtime and record types included) */
  files: ExportFile[];
  /** header app.c includes for the pack function */
  header: string;
  pack: string;
  maxSize: number;
  env: string[];
  buildFlags: string;
  hostSources: string[];
  hostCflags: string;
  hostLibs: string;
  hostNanopb?: ProjectParams["hostNanopb"];
  notes: string[];
}

const none = { env: [], buildFlags: "", hostSources: [], hostCflags: "", hostLibs: "", notes: [] };

/** The encoder of each format the firmware can send; which formats it accepts is their `exports.firmware` flag. */
const CODEC_OF = {
  struct: (layout: Layout, m: CModel): Codec => {
    const n = structNames(m);
    return {
      ...none,
      label: "Struct",
      files: generateCStruct(layout, "src/"),
      header: n.header,
      pack: n.pack,
      maxSize: planStruct(layout).maxSize,
      hostSources: [`src/${n.source}`],
    };
  },
  "struct-zlib": (layout: Layout, m: CModel): Codec => {
    const n = structNames(m);
    return {
      label: "Struct+Zlib",
      files: generateCStructZlib(layout, "src/"),
      header: n.zlibHeader,
      pack: n.zlibPack,
      maxSize: zlibBound(planStruct(layout).maxSize),
      env: [
        "; deflate on the ESP32: miniz (zlib-compatible mz_compress2). Sizes can differ from zlib 1.2.13's by a few",
        "; bytes; for the exact bytes the studio models, put zlib 1.2.13 into lib/zlib and drop -DSATPAYLOAD_USE_MINIZ",
        "lib_deps = https://github.com/richgel999/miniz/releases/download/3.0.2/miniz-3.0.2.zip",
      ],
      buildFlags: "-DSATPAYLOAD_USE_MINIZ",
      hostSources: [`src/${n.source}`, `src/${n.zlibSource}`],
      hostCflags: "",
      hostLibs: "-lz",
      notes: [
        "### Deflate",
        "",
        "The message is the Struct stream compressed at level 9 with the zlib wrapper, exactly what",
        "Python's `zlib.compress(data, 9)` and zlib's `compress2(…, 9)` produce. The studio's sizes are",
        "zlib 1.2.13's. On the ESP32 this project links miniz (`mz_compress2`, zlib-compatible output)",
        "because the Arduino core ships no zlib: every message is valid zlib, but miniz finds other",
        "matches, so a message can be a few bytes longer or shorter than the studio predicts. To send",
        "exactly the modelled bytes, add zlib 1.2.13's sources as `lib/zlib` and remove",
        "`-DSATPAYLOAD_USE_MINIZ` and the miniz `lib_deps` line. zlib needs about 262 KiB of heap while",
        "compressing at level 9 (memLevel 8, window 15), so use a board with PSRAM for that.",
        "",
      ],
    };
  },
  bitpacked: (layout: Layout, m: CModel): Codec => {
    const n = bitsNames(m);
    return {
      ...none,
      label: "bit-packed",
      files: generateCBitpacked(layout, "src/"),
      header: n.header,
      pack: n.pack,
      maxSize: bitpackedPlan(layout).maxBytes,
      hostSources: [`src/${n.source}`],
    };
  },
  protobuf: (layout: Layout, m: CModel): Codec => {
    const n = nanopbNames(layout);
    return {
      label: "Protocol Buffers (nanopb)",
      files: [...generateNanopb(layout, "proto/"), ...generateNanopbPacker(layout, "src/")],
      header: `${m.prefix}_pb_pack.h`,
      pack: `pack_${m.prefix}_pb`,
      maxSize: 0,
      env: ["lib_deps = nanopb/Nanopb@^0.4.7", `custom_nanopb_protos = +<proto/${n.proto}>`],
      buildFlags: "",
      hostSources: [`src/${m.prefix}_pb_pack.c`, n.pbSource],
      hostCflags: "",
      hostLibs: "-lprotobuf-nanopb",
      hostNanopb: { proto: n.proto, options: n.options, outputs: [n.pbSource, n.pbHeader] },
      notes: [
        "### nanopb",
        "",
        `\`proto/${n.proto}\` is the layout's proto3 schema and \`proto/${n.options}\` its nanopb options (static sizes from`,
        "the layout). PlatformIO's Nanopb library runs the generator at build time (`custom_nanopb_protos`).",
        `\`make -C host\` runs \`nanopb_generator\` on it and writes \`host/${n.pbSource}\` / \`host/${n.pbHeader}\` itself; it needs nanopb`,
        "(`pip install nanopb`, or Debian/Ubuntu: `apt install nanopb libnanopb-dev`) and says so when it is missing.",
        "",
      ],
    };
  },
};
const FIRMWARE_FORMATS = flaggedFormats("firmware", CODEC_OF);

export const firmwareOptionsSchema = z.object({
  format: option(formatChoice(FIRMWARE_FORMATS).default("protobuf"), {
    label: "Firmware encodes",
    description: "The wire format the firmware encodes its readings in.",
    flag: "firmware-format",
    choiceLabels: formatLabels(FIRMWARE_FORMATS),
  }),
  intervalSeconds: option(
    z
      .int()
      .min(1)
      .max(86400 * 7)
      .default(600),
    {
      label: "Seconds between readings",
      description: "How often the firmware reads its sensors and queues a message.",
      flag: "firmware-interval-seconds",
    },
  ),
  board: option(
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be a PlatformIO board id such as esp32dev")
      .default("esp32dev"),
    {
      label: "PlatformIO board",
      description: "The PlatformIO board id the project builds for.",
      flag: "firmware-board",
    },
  ),
  rxPin: option(z.int().min(0).max(48).default(16), {
    label: "Module UART RX pin",
    description: "The ESP32 GPIO the Astronode's TX is wired to (16: Serial2 on a DevKitC).",
    flag: "firmware-rx-pin",
  }),
  txPin: option(z.int().min(0).max(48).default(17), {
    label: "Module UART TX pin",
    description: "The ESP32 GPIO the Astronode's RX is wired to (17: Serial2 on a DevKitC).",
    flag: "firmware-tx-pin",
  }),
});
export type FirmwareOptions = z.output<typeof firmwareOptionsSchema>;
export type FirmwareFormat = FirmwareOptions["format"];

/** Validates untrusted options (from the UI or the CLI); throws ExportOptionError naming the option. */
export function firmwareOptions(raw: Record<string, unknown> = {}): FirmwareOptions {
  return parseOptions(firmwareOptionsSchema, raw);
}

function appFiles(layout: Layout, m: CModel, codec: Codec, format: FirmwareFormat): ExportFile[] {
  const sim = simCode(layout, m);
  const simHeader = [
    ...generatedNote(m, "simulated sensors"),
    ...cHeader(
      `${m.upper}_SIM_H`,
      ["#include <stddef.h>", "#include <stdint.h>", "", `#include "${typesHeaderName(m)}"`, '#include "sim_rt.h"', ""],
      [
        ...sim.header,
        "",
        "/* The record as one line of text (key=value ...); returns the length written. */",
        `size_t ${m.prefix}_print(const ${m.root.typeName} *rec, char *out, size_t cap);`,
      ],
    ),
  ];
  const simSource = [
    ...generatedNote(m, "simulated sensors"),
    `#include "${m.prefix}_sim.h"`,
    "",
    "#include <math.h>",
    "#include <stdarg.h>",
    "#include <stdio.h>",
    "#include <string.h>",
    "",
    ...sim.source,
    "",
    ...printCode(m),
    "",
  ];
  // nanopb computes the longest message itself
  const maxSize = format === "protobuf" ? `${nanopbNames(layout).maxSize}` : String(codec.maxSize);
  const appH = [
    ...generatedNote(m, `firmware application (${codec.label})`),
    ...cHeader(
      "APP_H",
      [
        "#include <stdint.h>",
        "",
        `#include "${codec.header}"`,
        `#include "${m.prefix}_sim.h"`,
        `#include "${RUNTIME_HEADER}"`,
        '#include "uplink.h"',
        "",
      ],
      [
        `#define APP_MAX_MESSAGE (${maxSize})`,
        "",
        "typedef struct {",
        "  const uplink_io *io;",
        "  uplink up;",
        `  ${m.prefix}_sim_t sim;`,
        `  ${m.root.typeName} rec;`,
        "  uint8_t buf[APP_MAX_MESSAGE];",
        "  uint32_t readings, encode_errors;",
        "} app_t;",
        "",
        "/* Starts the module (see uplink_begin) and seeds the simulated sensors. */",
        "int app_begin(app_t *a, const uplink_io *io, uint32_t seed);",
        "/* One reading: simulate, encode, print values and bytes, enqueue. Returns an uplink_result or a",
        " * negative sp_status when the reading could not be encoded. */",
        "int app_send(app_t *a);",
        "/* Module events (uplink_poll). */",
        "int app_poll(app_t *a);",
      ],
    ),
  ];
  const appC = [
    ...generatedNote(m, `firmware application (${codec.label})`),
    '#include "app.h"',
    "",
    "#include <stdio.h>",
    "#include <string.h>",
    "",
    "static void say(app_t *a, const char *line) { a->io->log(a->io->ctx, line); }",
    "",
    "int app_begin(app_t *a, const uplink_io *io, uint32_t seed) {",
    "  memset(a, 0, sizeof *a);",
    "  a->io = io;",
    `  ${m.prefix}_sim_init(&a->sim, seed);`,
    "  return uplink_begin(&a->up, io);",
    "}",
    "",
    "int app_send(app_t *a) {",
    "  char line[1024];",
    "  size_t at;",
    "  int n;",
    `  ${m.prefix}_sim_read(&a->sim, &a->rec);`,
    "  a->readings++;",
    '  at = (size_t)snprintf(line, sizeof line, "reading %u: ", (unsigned)a->readings);',
    `  ${m.prefix}_print(&a->rec, line + at, sizeof line - at);`,
    "  say(a, line);",
    `  n = ${codec.pack}(&a->rec, a->buf, sizeof a->buf);`,
    "  if (n < 0) {",
    "    a->encode_errors++;",
    `    snprintf(line, sizeof line, "encode failed: %s", sp_strerror(n));`,
    "    say(a, line);",
    "    return n;",
    "  }",
    "  if ((size_t)n > ASN_MAX_USER_BYTES) {",
    '    snprintf(line, sizeof line, "%d bytes: more than the 160 an Astronode message holds", n);',
    "    say(a, line);",
    "    return UPLINK_ERR_ARG;",
    "  }",
    `  snprintf(line, sizeof line, "${codec.label}: %d bytes", n);`,
    "  say(a, line);",
    "  return uplink_send(&a->up, a->buf, (size_t)n);",
    "}",
    "",
    "int app_poll(app_t *a) { return uplink_poll(&a->up); }",
    "",
  ];
  return [
    { path: "src/sim_rt.h", content: SIM_H, language: "h" },
    { path: "src/sim_rt.c", content: SIM_C, language: "c" },
    { path: `src/${m.prefix}_sim.h`, content: simHeader.join("\n"), language: "h" },
    { path: `src/${m.prefix}_sim.c`, content: simSource.join("\n"), language: "c" },
    { path: "src/app.h", content: appH.join("\n"), language: "h" },
    { path: "src/app.c", content: appC.join("\n"), language: "c" },
  ];
}

/** Every file of the project for untrusted options (validated first); paths are relative to its root, prefixed with `dir`. */
export function generateFirmware(layout: Layout, options: Record<string, unknown> = {}, dir = ""): ExportFile[] {
  return firmwareProject(layout, firmwareOptions(options), dir);
}

function firmwareProject(layout: Layout, o: FirmwareOptions, dir: string): ExportFile[] {
  const m = cModel(layout);
  const codec = CODEC_OF[o.format](layout, m);
  const params: ProjectParams = {
    title: layout.name,
    formatLabel: codec.label,
    board: o.board,
    rxPin: o.rxPin,
    txPin: o.txPin,
    intervalSeconds: o.intervalSeconds,
    envLines: codec.env,
    buildFlags: codec.buildFlags,
    hostSources: [`src/${m.prefix}_sim.c`, ...codec.hostSources.map((s) => (s.includes("/") ? s : `host/${s}`))],
    hostCflags: codec.hostCflags,
    hostLibs: codec.hostLibs,
    hostNanopb: codec.hostNanopb,
    formatNotes: codec.notes,
    maxSize: codec.maxSize,
  };
  const files: ExportFile[] = [
    { path: "platformio.ini", content: platformioIni(params), language: "ini" },
    { path: "README.md", content: readme(params), language: "md" },
    { path: "src/main.cpp", content: MAIN_CPP, language: "c" },
    ...appFiles(layout, m, codec, o.format),
    { path: "src/uplink.h", content: UPLINK_H, language: "h" },
    { path: "src/uplink.c", content: UPLINK_C, language: "c" },
    ...codec.files,
    { path: "lib/astronode/include/astronode.h", content: ASTRONODE_H, language: "h" },
    { path: "lib/astronode/src/astronode.c", content: ASTRONODE_C, language: "c" },
    { path: "host/host_main.c", content: HOST_MAIN_C, language: "c" },
    { path: "host/Makefile", content: hostMakefile(params), language: "text" },
  ];
  return dir ? files.map((f) => ({ ...f, path: `${dir}${f.path}` })) : files;
}

export const firmwareExporter: Exporter<typeof firmwareOptionsSchema> = {
  id: "firmware-esp32",
  label: "ESP32 firmware (PlatformIO + Arduino)",
  description:
    "A PlatformIO project (in <msg>_esp32/) that simulates the fields, encodes them (nanopb for Protobuf, the generated C packers otherwise), enqueues them on an Astronode S over its serial protocol, handles BUFFER_FULL, acknowledgements and resets, and prints what it sent.",
  options: firmwareOptionsSchema,
  // its own folder, so it sits beside the other exports in one tree or zip
  generate: (layout, options) => firmwareProject(layout, options, `${cModel(layout).prefix}_esp32/`),
};
