// The exported C compressor and decompressor, built with gcc (strict C99, every warning an error, ASan +
// UBSan) and run on the packets of schcRules.test.ts: the C writes the bytes microschc writes (through the
// exported schc_apply.py) and `schcCompress` writes, and rebuilds the original packet, checksum included; a
// packet the rule does not match goes whole behind rule id 0, a truncated or unknown SCHC packet is an error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import { coapIpv6Packet, schcCompress, schcUplinkRule, type SchcParams } from "#codecs/plans";
import { applyWithMicroschc, hex, SCHC_CASES } from "./microschc.ts";
import { cSnake } from "../../src/c/names.ts";
import { parseOptions } from "../../src/options.ts";
import { schcCFiles } from "../../src/schcC.ts";
import { generateSchcRules, microschcContext, schcParamsFor, schcRulesOptions } from "../../src/schcRules.ts";
import type { ExportFile } from "../../src/types.ts";
import { gcc, run, SANITIZE, STRICT, Workdir } from "../c/harness/build.ts";

const paper = parseLayout(presetById("paper")!.layout);
const SNAKE = cSnake(paper.message);

/** Lines "c HEX" compress, "d HEX" decompress; answers "ok HEX" or "err CODE". */
function harness(prefix: string): string {
  return `#include <stdio.h>
#include <string.h>
#include "${prefix}.h"

static uint8_t in[70000];
static uint8_t out[70000];
static char line[140100];

static int nibble(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int main(void) {
  while (fgets(line, sizeof line, stdin) != NULL) {
    size_t n = 0u;
    size_t i;
    int32_t r;
    const char *h = line + 2;
    while (nibble(h[2u * n]) >= 0 && nibble(h[2u * n + 1u]) >= 0) {
      in[n] = (uint8_t)(nibble(h[2u * n]) * 16 + nibble(h[2u * n + 1u]));
      n++;
    }
    /* the exact room the result needs, so ASan catches a byte written past it */
    r = line[0] == 'c' ? ${prefix}_compress(in, n, out, n + 1u) : ${prefix}_decompress(in, n, out, sizeof out);
    if (r < 0) {
      printf("err %d\\n", (int)r);
      continue;
    }
    printf("ok ");
    for (i = 0u; i < (size_t)r; i++) printf("%02x", out[i]);
    printf("\\n");
  }
  return 0;
}
`;
}

const work = new Workdir("schc-c");
afterAll(() => work.remove());

/** Builds the exported C for `files` (and a harness) into its own folder; returns the executable. */
function build(name: string, files: ExportFile[]): string {
  const c = files.filter((f) => f.path.endsWith(".c") || f.path.endsWith(".h"));
  work.write(c, name);
  const prefix = c
    .find((f) => f.path.endsWith(".h"))!
    .path.replace(/^schc\//, "")
    .replace(/\.h$/, "");
  work.writeText(`${name}/schc/main.c`, harness(prefix));
  gcc(work, [...STRICT, ...SANITIZE, `${name}/schc/main.c`, `${name}/schc/${prefix}.c`, "-o", `${name}/run`]);
  return work.path(`${name}/run`);
}

async function apply(exe: string, lines: string[]): Promise<string[]> {
  const r = await run(exe, lines);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.lines;
}

async function proveSame(exe: string, params: SchcParams, files: ExportFile[]) {
  const packets = SCHC_CASES.map((c) => coapIpv6Packet(params, c.counter, c.payload));
  const microschc = applyWithMicroschc(files, packets);
  const compressed = await apply(
    exe,
    packets.map((p) => `c ${hex(p)}`),
  );
  SCHC_CASES.forEach((c, i) => {
    const ours = hex(schcCompress(params, c.counter, c.payload));
    expect(compressed[i], `payload ${c.payload.length} B`).toBe(`ok ${ours}`);
    expect(microschc[i]!.schc).toBe(ours);
  });
  const restored = await apply(
    exe,
    compressed.map((l) => `d ${l.slice(3)}`),
  );
  expect(restored).toEqual(packets.map((p) => `ok ${hex(p)}`));
}

let defaultExe = "";
beforeAll(() => {
  defaultExe = build("default", generateSchcRules(paper));
});

describe("SCHC rule set export: the C compressor and decompressor", () => {
  it("exports schc/schc_<message>.h and .c beside the rule set", () => {
    const paths = generateSchcRules(paper).map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining([`schc/schc_${SNAKE}.h`, `schc/schc_${SNAKE}.c`]));
    const readme = generateSchcRules(paper).find((f) => f.path === "schc/README.md")!.content;
    expect(readme).toContain(`schc_${SNAKE}_compress(packet, len, out, cap)`);
    expect(readme).toContain(`schc_${SNAKE}_decompress(schc, len, out, cap)`);
  });

  it("compresses to the bytes of microschc and schcCompress (2 B + payload) and rebuilds each packet", async () => {
    await proveSame(defaultExe, schcParamsFor(paper), generateSchcRules(paper));
  });

  it("the addresses and ports the user sets are the C's constants, and still agree", async () => {
    const o = parseOptions(schcRulesOptions, {
      schcDeviceAddress: "fd00:5a7::17",
      schcServerAddress: "2a01:4f8:1:2::c0a9",
      schcDevicePort: 40123,
      schcServerPort: 5684,
    });
    const files = generateSchcRules(paper, o);
    await proveSame(build("custom", files), schcParamsFor(paper, o), files);
    // the default build does not take the other addresses' packets: they go uncompressed
    const foreign = coapIpv6Packet(schcParamsFor(paper, o), 1, Uint8Array.of(5));
    expect(await apply(defaultExe, [`c ${hex(foreign)}`])).toEqual([`ok 00${hex(foreign)}`]);
  });

  it("a 3-bit residue (padding) and a long Uri-Path segment (extended option length) agree too", async () => {
    const params: SchcParams = {
      ...schcParamsFor(paper),
      lsbBits: 3,
      uriPath: ["telemetry", "a-segment-longer-than-13"],
    };
    const files = [
      ...generateSchcRules(paper)
        .filter((f) => !f.path.endsWith(".c") && !f.path.endsWith(".h"))
        .map((f) =>
          f.path.endsWith(".schc.json")
            ? { ...f, content: JSON.stringify(microschcContext(schcUplinkRule(params), "long")) }
            : f,
        ),
      ...schcCFiles(params, "Long"),
    ];
    await proveSame(build("long", files), params, files);
  });

  it("a packet the rule does not match goes whole behind rule id 0, as microschc sends it, and comes back", async () => {
    const params = schcParamsFor(paper);
    const other = coapIpv6Packet(params, 1, Uint8Array.from([7, 8, 9]));
    other[52] = 0x99; // the Message ID's high byte leaves the rule's range
    const [viaMicroschc] = applyWithMicroschc(generateSchcRules(paper), [other]);
    const [c] = await apply(defaultExe, [`c ${hex(other)}`]);
    expect(c).toBe(`ok 00${hex(other)}`);
    expect(c).toBe(`ok ${viaMicroschc!.schc}`);
    expect(await apply(defaultExe, [`d 00${hex(other)}`])).toEqual([`ok ${hex(other)}`]);
  });

  it("a packet whose checksum or length is wrong is not compressed: it comes back unchanged, not repaired", async () => {
    const params = schcParamsFor(paper);
    const bad = coapIpv6Packet(params, 2, Uint8Array.from([1, 2, 3, 4]));
    bad[47] = bad[47]! ^ 0x01;
    // the IPv6 Payload Length one byte too long (the checksum does not cover it)
    const badLength = coapIpv6Packet(params, 2, Uint8Array.from([1, 2, 3, 4]));
    badLength[5] = badLength[5]! + 1;
    const noPayload = coapIpv6Packet(params, 2, new Uint8Array(0));
    const lines = await apply(defaultExe, [`c ${hex(bad)}`, `c ${hex(badLength)}`, `c ${hex(noPayload)}`]);
    expect(lines).toEqual([`ok 00${hex(bad)}`, `ok 00${hex(badLength)}`, `ok 00${hex(noPayload)}`]);
  });

  it("a truncated SCHC packet, an empty one and an unknown rule id are errors, never a packet", async () => {
    const params = schcParamsFor(paper);
    const whole = hex(schcCompress(params, 3, Uint8Array.from([9, 9, 9])));
    // rule id + residue without a payload byte; nothing; rule id 0x07 (no such rule); rule 0 with nothing behind
    const lines = await apply(defaultExe, [`d ${whole.slice(0, 4)}`, "d ", "d 07aabb", "d 00"]);
    expect(lines).toEqual(["err -2", "err -2", "err -3", "err -2"]);
    expect(await apply(defaultExe, [`d ${whole}`])).toEqual([
      `ok ${hex(coapIpv6Packet(params, 3, Uint8Array.from([9, 9, 9])))}`,
    ]);
  });
});
