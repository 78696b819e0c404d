// The plain-C protocol code the ESP32 firmware shares: built with gcc -std=c99 -Wall -Wextra -Werror, its own
// tests run, then it is compared with the TypeScript framing on thousands of random frames and noisy streams.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesToHex, Prng } from "#codecs";
import { encodeFrame, FrameDecoder, frameText, MAX_ANSWER_TEXT } from "../src/protocol/frame.ts";

const lib = fileURLToPath(new URL("../../firmware/astronode-c", import.meta.url));
const bridge = fileURLToPath(new URL("../../firmware/esp32-bridge", import.meta.url));
let dir: string;
let exe: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "satpayload-astronode-c-"));
  exe = path.join(dir, "test_astronode");
  execFileSync(
    "gcc",
    [
      "-std=c99",
      "-Wall",
      "-Wextra",
      "-Werror",
      "-pedantic",
      "-O1",
      "-I",
      path.join(lib, "include"),
      path.join(lib, "src/astronode.c"),
      path.join(lib, "test/test_astronode.c"),
      "-o",
      exe,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("firmware/esp32-bridge (the parts that run without the board)", () => {
  it("control protocol: lines between frames are commands, frames pass untouched, status line format", () => {
    const exe2 = path.join(dir, "test_control");
    execFileSync(
      "gcc",
      [
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        path.join(bridge, "src/control.c"),
        path.join(bridge, "test/test_control.c"),
        "-o",
        exe2,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    expect(execFileSync(exe2, { encoding: "utf8" })).toMatch(/esp32-bridge control: \d+ checks, 0 failed/);
  });

  it("the shared headers compile as C++ the way main.cpp includes them", () => {
    execFileSync(
      "g++",
      [
        "-std=c++17",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-fsyntax-only",
        "-I",
        path.join(lib, "include"),
        "-I",
        path.join(bridge, "src"),
        "-x",
        "c++",
        "-",
      ],
      {
        input:
          'extern "C" {\n#include "astronode.h"\n#include "control.h"\n}\nint main() { asn_decoder d; asn_decoder_init(&d, ASN_MAX_ANSWER_FRAME); bridge_ctl c; bridge_ctl_init(&c); return 0; }\n',
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
  });
});

describe("firmware/astronode-c", () => {
  it("passes its own tests (worked frames, parsers, resynchronisation)", () => {
    const out = execFileSync(exe, { encoding: "utf8" });
    expect(out).toMatch(/astronode-c: \d{3,} checks, 0 failed/);
  });

  it("passes them under valgrind without a memory error", () => {
    const out = execFileSync("valgrind", ["--error-exitcode=3", "--leak-check=full", "-q", exe], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(out).toMatch(/0 failed/);
  });

  it("encodes 2000 random frames exactly as the TypeScript client does", () => {
    const rng = new Prng(5);
    const cases = Array.from({ length: 2000 }, () => ({
      op: rng.int(0, 255),
      payload: Uint8Array.from({ length: rng.int(0, 194) }, () => rng.int(0, 255)),
    }));
    const input =
      cases.map((c) => `${c.op.toString(16)} ${c.payload.length ? bytesToHex(c.payload) : "-"}`).join("\n") + "\n";
    const lines = execFileSync(exe, ["--encode"], { input, encoding: "utf8" }).trim().split("\n");
    expect(lines).toEqual(cases.map((c) => frameText(c.op, c.payload)));
  });

  it("decodes a noisy stream (garbage, cut-off and damaged frames) exactly as the TypeScript decoder does", () => {
    const rng = new Prng(9);
    const parts: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const wire = encodeFrame(
        rng.int(0, 255),
        Uint8Array.from({ length: rng.int(0, 90) }, () => rng.int(0, 255)),
      );
      const r = rng.next();
      if (r < 0.1) parts.push(...Array.from({ length: rng.int(1, 20) }, () => rng.int(0, 255)));
      if (r < 0.2) wire[rng.int(1, wire.length - 2)] = "0123456789ABCDEFxyz".charCodeAt(rng.int(0, 18));
      parts.push(...(r > 0.9 ? wire.subarray(0, rng.int(1, wire.length - 1)) : wire));
      if (r > 0.97) parts.push(0x02, 0x41, 0x35, 0x03);
    }
    const stream = Uint8Array.from(parts);
    const ts = new FrameDecoder(MAX_ANSWER_TEXT);
    const want = ts.push(stream).map((x) => {
      if (x.kind === "frame")
        return `FRAME ${x.frame.opcode.toString(16).padStart(2, "0").toUpperCase()} ${bytesToHex(x.frame.payload).toUpperCase()}`.trimEnd();
      return { crc: "BAD_CRC", hex: "BAD_HEX", too_long: "TOO_LONG", short: "TOO_SHORT" }[x.problem];
    });
    const got = execFileSync(exe, ["--decode"], { input: stream, encoding: "utf8" })
      .trim()
      .split("\n")
      .map((l) => l.trimEnd());
    expect(got.pop()).toBe(`NOISE ${ts.noise}`);
    expect(got).toEqual(want);
    expect(want.filter((w) => w.startsWith("FRAME")).length).toBeGreaterThan(2000);
    expect(new Set(want.filter((w) => !w.startsWith("FRAME")))).toEqual(
      new Set(["BAD_CRC", "BAD_HEX", "TOO_LONG", "TOO_SHORT"]),
    );
  });
});
