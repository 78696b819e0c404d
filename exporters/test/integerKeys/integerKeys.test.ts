// The integer-keys export against its real consumers: Python's rename.py turns what cbor2 and
// msgpack decode from our integer-keyed bytes into exactly what they decode from our text-keyed
// bytes (keys, values and order), gcc compiles the header with every #define equal to the number on
// the wire, and the JSON map names every number the codecs write.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { codecFor, generateSamples, type Layout, paperPreset, parseLayout } from "#codecs";
import { sensor } from "#codecs-test/fixtures/sensor.ts";
import { referencePython } from "#codecs-test/helpers/python.ts";
import { generateIntegerKeys, integerKeyMap, type KeyEntry } from "../../src/integerKeys.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

function exported(layout: Layout): { dir: string; files: Record<string, string> } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "satpayload-intkeys-"));
  const files: Record<string, string> = {};
  for (const f of generateIntegerKeys(layout)) {
    const name = path.basename(f.path);
    writeFileSync(path.join(dir, name), f.content);
    files[name] = f.content;
  }
  return { dir, files };
}

// decodes each pair with the Python libraries and compares rename(number-keyed) with the text-keyed
// document, items in order; NaN is not equal to itself, so values compare through repr
const PY = `
import json, sys
import cbor2, msgpack
sys.path.insert(0, sys.argv[1])
import rename
req = json.load(sys.stdin)
loads = {"cbor": cbor2.loads, "msgpack": lambda b: msgpack.unpackb(b, raw=False, strict_map_key=False)}
def items(d):
    return [(k, items(v) if isinstance(v, dict) else repr(v)) for k, v in d.items()]
same = 0
for fmt, named_hex, int_hex in req:
    want = loads[fmt](bytes.fromhex(named_hex))
    doc = loads[fmt](bytes.fromhex(int_hex))
    assert all(isinstance(k, int) for k in doc), doc
    got = rename.rename(doc)
    if items(got) != items(want):
        sys.exit(f"{fmt}: {items(got)} != {items(want)}")
    same += 1
try:
    rename.rename({999: 1})
    sys.exit("an unknown number was accepted")
except ValueError as e:
    print(json.dumps({"same": same, "unknown": str(e)}))
`;

describe.each([
  ["the paper preset", parseLayout(paperPreset)],
  ["a layout with a group", sensor],
])("integer keys of %s", (_name, layout) => {
  const { dir, files } = exported(layout);

  test("rename.py turns cbor2's and msgpack's reading of our integer-keyed bytes into the named document", () => {
    const pairs = generateSamples(layout, 200, 5).flatMap((rec) =>
      (["cbor", "msgpack"] as const).map((f) => [
        f,
        hex(codecFor(layout, f).encode(rec)),
        hex(codecFor(layout, `${f}-int`).encode(rec)),
      ]),
    );
    const out = execFileSync(referencePython(), ["-c", PY, dir], { input: JSON.stringify(pairs) }).toString();
    const { same, unknown } = JSON.parse(out) as { same: number; unknown: string };
    expect(same).toBe(400);
    expect(unknown).toMatch(/unknown key 999/);
  });

  test("rename.py from a shell: the named document as JSON, keys in the layout's order", () => {
    const rec = generateSamples(layout, 1, 3)[0]!;
    for (const f of ["cbor", "msgpack"] as const) {
      const out = execFileSync(referencePython(), [path.join(dir, "rename.py"), f], {
        input: codecFor(layout, `${f}-int`).encode(rec),
      }).toString();
      expect(Object.keys(JSON.parse(out) as object), f).toEqual(layout.fields.map((x) => x.key));
    }
  });

  test("the C header compiles and every #define is the number on the wire", () => {
    const h = Object.keys(files).find((n) => n.endsWith(".h"))!;
    const defines = [...files[h]!.matchAll(/^#define (\w+) (\d+)u /gm)].map((m) => [m[1]!, Number(m[2])] as const);
    const all = (es: KeyEntry[]): KeyEntry[] => es.flatMap((e) => [e, ...all(e.fields ?? [])]);
    const entries = all(integerKeyMap(layout).fields);
    expect(defines.map(([, n]) => n)).toEqual(entries.map((e) => e.number));
    const main = path.join(dir, "main.c");
    writeFileSync(
      main,
      `#include "${h}"\n${defines.map(([name, n]) => `_Static_assert(${name} == ${n}, "${name}");`).join("\n")}\nint main(void) { return 0; }\n`,
    );
    execFileSync("gcc", ["-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", main]);
  });

  test("the JSON map names every number the codec writes, at every level", () => {
    const json = JSON.parse(files[Object.keys(files).find((n) => n.endsWith(".keys.json"))!]!) as {
      fields: KeyEntry[];
    };
    const rec = generateSamples(layout, 1, 9)[0]!;
    const doc = codecFor(layout, "cbor-int").document!.read(codecFor(layout, "cbor-int").encode(rec));
    const named = (d: unknown, es: KeyEntry[]): unknown =>
      Object.fromEntries(
        Object.entries(d as Record<string, unknown>).map(([k, v]) => {
          const e = es.find((x) => x.number === Number(k))!;
          return [e.key, e.fields ? named(v, e.fields) : v];
        }),
      );
    expect(named(doc, json.fields)).toEqual(
      codecFor(layout, "cbor").document!.read(codecFor(layout, "cbor").encode(rec)),
    );
  });
});
