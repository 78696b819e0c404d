// The ESP32 firmware export: its portable C (simulated sensors, the format's encoder, the Astronode
// uplink over firmware/astronode-c) is built on the host with gcc (strict C99, ASan + UBSan) from the
// project's own host/Makefile and run against the devkit-bridge module simulator; the Arduino sketch
// is syntax-checked with g++ against minimal Arduino stub headers. The ESP32 toolchain itself
// (xtensa gcc, the Arduino core, PlatformIO's nanopb and miniz libraries) is not available here.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codecFor, type FormatId, type Layout, paperPreset, parseLayout } from "#codecs";
import { repoRoot } from "#codecs-test/helpers/python.ts";
import { embeddedModule } from "#firmware/templates/embedAstronode.ts";
import { gccAsync, inParallel, run, SANITIZE, STRICT, Workdir } from "./harness/build.ts";
import { runFirmware } from "./harness/firmwareRun.ts";
import { CROSS_LAYOUTS } from "./harness/layouts.ts";
import { cModel } from "../../src/c/model.ts";
import { generateFirmware } from "../../src/firmware.ts";
import { ExportOptionError } from "../../src/types.ts";

const FORMATS = ["protobuf", "struct", "struct-zlib", "bitpacked"] as const;

/** Just enough of the Arduino-ESP32 API for the sketch to be type-checked (signatures of core 3.x). */
const ARDUINO_STUB = String.raw`#pragma once
#include <stddef.h>
#include <stdint.h>
#define SERIAL_8N1 0x800001c
unsigned long millis(void);
void delay(uint32_t ms);
uint32_t esp_random(void);
class HardwareSerial {
 public:
  void begin(unsigned long baud, uint32_t config = SERIAL_8N1, int8_t rxPin = -1, int8_t txPin = -1, bool invert = false, unsigned long timeout_ms = 20000UL, uint8_t rxfifo_full_thrhd = 120);
  int available(void);
  int read(void);
  size_t write(const uint8_t *buffer, size_t size);
  size_t println(const char *s);
};
extern HardwareSerial Serial;
extern HardwareSerial Serial2;
`;

const layout: Layout = parseLayout(paperPreset);
const work = new Workdir("firmware");
const exes = new Map<string, string>();

function make(dir: string, cflags: string[]): void {
  execFileSync(
    "make",
    [
      "-s",
      "-C",
      `${dir}/host`,
      `CFLAGS=${["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-ffp-contract=off", ...cflags].join(" ")}`,
    ],
    {
      cwd: work.dir,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 120_000,
    },
  );
}

/** A driver for the simulated sensors of any layout: readings → print line and Struct bytes. */
function simDriver(prefix: string, typeName: string): string {
  return [
    `#include "${prefix}_sim.h"`,
    `#include "${prefix}_struct.h"`,
    "#include <stdio.h>",
    "int main(void) {",
    `  static ${prefix}_sim_t s;`,
    `  static ${typeName} rec;`,
    `  static uint8_t buf[${prefix.toUpperCase()}_STRUCT_MAX_SIZE + 1];`,
    "  static char line[16384];",
    "  int i, n;",
    `  ${prefix}_sim_init(&s, 7);`,
    "  for (i = 0; i < 60; i++) {",
    `    ${prefix}_sim_read(&s, &rec);`,
    `    ${prefix}_print(&rec, line, sizeof line);`,
    `    n = pack_${prefix}(&rec, buf, sizeof buf);`,
    '    if (n < 0) printf("ERR %d\\n", n);',
    "    else {",
    "      int k;",
    '      printf("OK ");',
    '      for (k = 0; k < n; k++) printf("%02x", buf[k]);',
    '      printf("\\n");',
    "    }",
    '    printf("%s\\n", line);',
    "  }",
    "  return 0;",
    "}",
    "",
  ].join("\n");
}

const sims: { name: string; layout: Layout; exe: string }[] = [];

beforeAll(async () => {
  const jobs: (() => Promise<void>)[] = [];
  CROSS_LAYOUTS.forEach(([name, input], i) => {
    const l = parseLayout(input);
    const m = cModel(l);
    const dir = `sim${i}`;
    work.write(generateFirmware(l, { format: "struct" }), dir);
    work.writeText(`${dir}/driver.c`, simDriver(m.prefix, m.root.typeName));
    const src = (f: string) => `${dir}/src/${f}`;
    jobs.push(() =>
      gccAsync(work, [
        ...STRICT,
        ...SANITIZE,
        `-I${dir}/src`,
        "-o",
        `${dir}/driver`,
        `${dir}/driver.c`,
        src(`${m.prefix}_sim.c`),
        src("sim_rt.c"),
        src(`${m.prefix}_struct.c`),
        src("satpayload_rt.c"),
        "-lm",
      ]),
    );
    sims.push({ name, layout: l, exe: work.path(`${dir}/driver`) });
  });
  await inParallel(jobs);
}, 300_000);

beforeAll(() => {
  for (const format of FORMATS) {
    work.write(generateFirmware(layout, { format }), format);
    // Protobuf: the project's Makefile runs Debian's nanopb_generator.py itself
    make(format, SANITIZE);
    exes.set(format, work.path(`${format}/host/host_main`));
  }
  work.write(generateFirmware(layout, { format: "bitpacked" }), "valgrind");
  make("valgrind", ["-g", "-O1"]);
  work.writeText("stubs/Arduino.h", ARDUINO_STUB);
}, 300_000);

afterAll(() => work.remove());

const SANITIZER = /AddressSanitizer|LeakSanitizer|runtime error:/;

// the runs mostly wait on the module's timing, so they overlap (nothing may block the event loop meanwhile)
describe.concurrent("on the host, against the module simulator", () => {
  it.for(FORMATS)(
    "%s: encodes simulated readings, enqueues them and logs every acknowledgement",
    async (format, { expect }) => {
      const run = runFirmware(exes.get(format)!, ["3", "200", "2500", "7"], {
        pass: { auto: true, delayMs: 400 },
        faults: { firstRequestLost: true },
      });
      const { code, log } = await run.done;
      expect(log.filter((l) => SANITIZER.test(l))).toEqual([]);
      expect(code).toBe(0);
      expect(run.enqueued.map((e) => e.id)).toEqual([1, 2, 3]);
      const codec = codecFor(layout, format as FormatId);
      for (const e of run.enqueued) {
        // what it printed is what the module got
        expect(log).toContain(
          `queued id=${e.id} ${e.data.length} bytes: ${Buffer.from(e.data).toString("hex").toUpperCase()}`,
        );
        // and the studio reads it as a record of the layout: the paper's constant cell id, a sane RSSI
        const rec = codec.decode(e.data);
        expect(rec.cgi).toBe("999-01-1-31D41");
        expect(rec.rssi).toBeGreaterThanOrEqual(15);
        expect(rec.rssi).toBeLessThanOrEqual(35);
        const reading = log.find((l) => l.startsWith(`reading ${e.id}: `))!;
        expect(reading).toContain(`rssi=${rec.rssi as number} `);
        expect(reading).toContain(`msisdn="${rec.msisdn as string}"`);
      }
      expect(log).toContain("acknowledged by satellite: id=3");
      expect(log[log.length - 1]).toMatch(/^summary: queued=3 acked=3 full=0 dropped=0 resets=0 commands=0 held=0/);
    },
  );

  it("holds a payload on BUFFER_FULL, keeps the newest, and sends it once acknowledgements free a slot; re-configures after a reset; prints a downlink", async ({
    expect,
  }) => {
    const run = runFirmware(exes.get("struct")!, ["10", "30", "9000", "3"], {
      pass: { auto: false, delayMs: 0 },
      bootMs: 300,
    });
    // ten readings into eight slots: the ninth is held, the tenth replaces it
    run.when(/^BUFFER_FULL/, 2, () => {
      run.when(/^reading 10:/, 1, () => {
        run.device.model.injectDownlink(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]));
        run.device.model.satellitePass();
      });
    });
    run.when(/^acknowledged by satellite/, 8, () => run.device.reset());
    const { code, log } = await run.done;
    expect(log.filter((l) => SANITIZER.test(l))).toEqual([]);
    expect(code).toBe(0);
    expect(log.filter((l) => l.startsWith("BUFFER_FULL")).length).toBeGreaterThanOrEqual(2);
    expect(log).toContain("dropped the held payload for a newer one");
    expect(log).toContain("downlink command (8 bytes): 0102030405060708");
    expect(log).toContain("module reset: clearing the flag and configuring again");
    // the held payload is reading 10, which the module takes as soon as one acknowledgement is cleared
    const tenth = log.findIndex((l) => l.startsWith("reading 10:"));
    const queuedAfter = log.slice(tenth).filter((l) => l.startsWith("queued id="));
    expect(queuedAfter).toHaveLength(1);
    expect(run.enqueued).toHaveLength(9);
    const summary = log[log.length - 1]!;
    expect(summary).toMatch(/ acked=8 /);
    expect(summary).toMatch(/ dropped=1 /);
    expect(summary).toMatch(/ resets=1 /);
    expect(summary).toMatch(/ commands=1 /);
    expect(summary).toMatch(/ held=0 /);
  }, 60_000);

  it("the unsanitised host build runs clean under valgrind memcheck", async ({ expect }) => {
    const run = runFirmware(
      work.path("valgrind/host/host_main"),
      ["2", "100", "1500", "5"],
      { pass: { auto: true, delayMs: 200 } },
      ["valgrind", "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect", "-q"],
    );
    const { code, log } = await run.done;
    expect(log.filter((l) => l.startsWith("=="))).toEqual([]);
    expect(code).toBe(0);
    expect(run.enqueued).toHaveLength(2);
  }, 90_000);
});

describe("simulated sensors", () => {
  it.each(CROSS_LAYOUTS.map(([name], i) => [name, i] as const))(
    "%s: readings the studio decodes, printed field by field",
    async (_name, i) => {
      const { layout: l, exe } = sims[i]!;
      const out = await run(exe, []);
      expect(out.stderr).toBe("");
      expect(out.code).toBe(0);
      expect(out.lines).toHaveLength(120);
      const codec = codecFor(l, "struct");
      let ok = 0;
      for (let k = 0; k < out.lines.length; k += 2) {
        const packed = out.lines[k]!;
        const printed = out.lines[k + 1]!;
        // every top-level required field shows up in the printed line
        for (const f of l.fields)
          if (f.presence === "required" && f.type.kind !== "group") expect(printed).toContain(`${f.key}=`);
        if (!packed.startsWith("OK ")) continue;
        ok++;
        expect(() => codec.decode(new Uint8Array(Buffer.from(packed.slice(3), "hex")))).not.toThrow();
      }
      // a reading the packer refuses is a simulated value the layout does not allow (e.g. a time
      // before 1970 in a uint32 field); the simulation clamps to the layout, so that stays rare
      expect(ok).toBeGreaterThanOrEqual(50);
    },
  );
});

describe("the Arduino sketch", () => {
  it.each(FORMATS)(
    "%s: src/main.cpp passes g++ -fsyntax-only -Wall -Wextra -Werror against stub Arduino headers",
    (format) => {
      const out = execFileSync(
        "g++",
        [
          "-fsyntax-only",
          "-std=gnu++17",
          "-Wall",
          "-Wextra",
          "-Werror",
          "-I",
          "stubs",
          "-I",
          `${format}/src`,
          "-I",
          `${format}/lib/astronode/include`,
          "-I",
          `${format}/host`,
          `${format}/src/main.cpp`,
        ],
        { cwd: work.dir, stdio: ["ignore", "pipe", "pipe"] },
      );
      expect(out.toString()).toBe("");
    },
  );
});

describe("the project", () => {
  const files = (format: string) => new Map(generateFirmware(layout, { format }).map((f) => [f.path, f.content]));

  it("configures PlatformIO for an ESP32 with Arduino, and nanopb for Protobuf", () => {
    const pb = files("protobuf");
    const ini = pb.get("platformio.ini")!;
    expect(ini).toContain("platform = espressif32");
    expect(ini).toContain("framework = arduino");
    expect(ini).toContain("lib_deps = nanopb/Nanopb@^0.4.7");
    expect(ini).toContain("custom_nanopb_protos = +<proto/container_data.proto>");
    expect(pb.has("proto/container_data.options")).toBe(true);
    expect(files("struct-zlib").get("platformio.ini")).toContain("-DSATPAYLOAD_USE_MINIZ");
    expect(files("struct").get("platformio.ini")).not.toContain("lib_deps");
  });

  it("ships the shared Astronode framing as it is in firmware/astronode-c", () => {
    const p = files("struct");
    const repo = (rel: string) => readFileSync(path.join(repoRoot, rel), "utf8");
    expect(p.get("lib/astronode/include/astronode.h")).toBe(repo("firmware/astronode-c/include/astronode.h"));
    expect(p.get("lib/astronode/src/astronode.c")).toBe(repo("firmware/astronode-c/src/astronode.c"));
    // the embedded copy is regenerated with `npm run embed:astronode`
    expect(repo("firmware/templates/astronodeC.generated.ts")).toBe(embeddedModule());
  });

  it("Protobuf: make -C host generates the nanopb sources itself, and says what to install when nanopb_generator is missing", () => {
    // the build in beforeAll ran from a project holding no .pb.c/.pb.h: the Makefile made them
    expect(existsSync(work.path("protobuf/host/container_data.pb.c"))).toBe(true);
    expect(existsSync(work.path("protobuf/host/host_main"))).toBe(true);
    work.write(generateFirmware(layout, { format: "protobuf" }), "no-nanopb");
    const emptyPath = work.path("no-nanopb/empty-bin");
    mkdirSync(emptyPath);
    let stderr = "";
    let status: number | null = 0;
    try {
      execFileSync("/usr/bin/make", ["-s", "-C", "no-nanopb/host"], {
        cwd: work.dir,
        env: { PATH: emptyPath },
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 60_000,
      });
    } catch (e) {
      const err = e as { status: number | null; stderr: Buffer };
      status = err.status;
      stderr = err.stderr.toString();
    }
    expect(status).not.toBe(0);
    expect(stderr).toContain(
      "nanopb_generator not found: install nanopb (pip install nanopb, or Debian/Ubuntu: apt install nanopb libnanopb-dev)",
    );
    expect(stderr).toContain("proto/container_data.proto");
    expect(existsSync(work.path("no-nanopb/host/host_main"))).toBe(false);
  });

  it("has a README that says how to build and flash", () => {
    const md = files("bitpacked").get("README.md")!;
    expect(md).toContain("pio run -t upload");
    expect(files("protobuf").get("README.md")).toContain("`make -C host` runs `nanopb_generator`");
    expect(md).toContain("GPIO 16 (RX2)");
  });

  it("refuses bad options with the option's name", () => {
    expect(() => generateFirmware(layout, { format: "json" })).toThrow(ExportOptionError);
    expect(() => generateFirmware(layout, { intervalSeconds: 0 })).toThrow(/intervalSeconds/);
    expect(() => generateFirmware(layout, { board: "esp32; rm -rf /" })).toThrow(/board/);
  });
});
