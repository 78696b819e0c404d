// A Java harness over the codecs the SBE tool generates from our schema: it decodes our bytes with the
// generated decoders and prints every wire value; `expectedTokens` computes the same list from our
// decoder's typed record, so both readings of the same bytes can be compared value by value.
import type { Field, Layout, ScalarType } from "../../src/layout/schema.ts";
import type { FieldValue, ScalarValue, TypedRecord } from "../../src/layout/values.ts";
import type { SbeField, SbeScalar } from "../../src/formats/fixed/sbePlan.ts";
import type { PrimCode, Raw } from "../../src/formats/fixed/prim.ts";
import { sbeSchemaModel, type SbeSchemaModel } from "../../src/exporters/sbe/model.ts";

type Expect = (rec: TypedRecord | undefined, out: string[]) => void;

interface Piece {
  java: string[];
  expect: Expect;
}

const F32 = new DataView(new ArrayBuffer(8));

function rawText(code: PrimCode, raw: Raw): string {
  switch (code) {
    case "f":
      F32.setFloat32(0, Number(raw));
      return F32.getUint32(0).toString(16);
    case "d":
      F32.setFloat64(0, Number(raw));
      return F32.getBigUint64(0).toString(16);
    default:
      return String(raw);
  }
}

const JAVA_OUT: Record<PrimCode, string> = { b: "i", B: "i", h: "i", H: "i", i: "i", I: "i", q: "i", Q: "u64", f: "f", d: "d" };
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);
const upperFirst = (s: string) => s[0]!.toUpperCase() + s.slice(1);
let tmp = 0;

/** One fixed-size value read by `read` (a Java expression prefix such as `d.rssi`). */
function scalarPiece(s: SbeScalar, t: ScalarType, recv: string, acc: string, index: string | undefined): { java: string; expect: (v: ScalarValue | undefined) => string } {
  const call = (suffix = "") => `${recv}.${acc}${suffix}(${index ?? ""})`;
  if (s.kind === "num") {
    const enumLike = (t.kind === "bool" || t.kind === "enum") && index === undefined;
    return {
      java: `o.${JAVA_OUT[s.slot.code]}(${call(enumLike ? "Raw" : "")});`,
      expect: (v) => rawText(s.slot.code, v === undefined ? s.nullRaw : s.slot.toRaw(v)),
    };
  }
  if (s.kind === "chars") {
    return {
      java: `o.s(${call()});`,
      expect: (v) => (v === undefined ? "" : s.of === "time" ? s.time!.format(v as number)! : (v as string)),
    };
  }
  const n = `b${tmp++}`;
  return {
    java: `{ final var ${n} = ${recv}; o.bytes(i -> ${n}.${acc}(i), ${s.size}); }`,
    expect: (v) => (v === undefined ? "ff".repeat(s.size) : hex(v as Uint8Array)),
  };
}

function arrayOf(v: FieldValue | undefined): ScalarValue[] | undefined {
  return v as ScalarValue[] | undefined;
}

/** Root block values of one level (fixed, fixed arrays, group composites), in plan order. */
function blockPieces(fields: Field[], plan: SbeField[], recv: string): Piece[] {
  const out: Piece[] = [];
  plan.forEach((pf, i) => {
    const f = fields[i]!;
    const t = f.type;
    const acc = lowerFirst(nameOf(pf));
    const n = pf.node;
    if (n.kind === "fixed" && t.kind !== "array" && t.kind !== "group") {
      const p = scalarPiece(n.scalar, t, recv, acc, undefined);
      out.push({ java: [p.java], expect: (rec, o) => o.push(p.expect(rec?.[f.key] as ScalarValue | undefined)) });
    } else if (n.kind === "fixedArray" && t.kind === "array") {
      if (n.scalar.kind === "num") {
        const p = scalarPiece(n.scalar, t.of, recv, acc, "i");
        out.push({
          java: [`for (int i = 0; i < ${n.count}; i++) ${p.java}`],
          expect: (rec, o) => {
            const a = arrayOf(rec?.[f.key]);
            for (let k = 0; k < n.count; k++) o.push(p.expect(a?.[k]));
          },
        });
      } else {
        const c = `c${tmp++}`;
        const elems = Array.from({ length: n.count }, (_, k) => scalarPiece(n.scalar, t.of, c, `e${k}`, undefined));
        out.push({
          java: [`{ final var ${c} = ${recv}.${acc}();`, ...elems.map((e) => `  ${e.java}`), "}"],
          expect: (rec, o) => {
            const a = arrayOf(rec?.[f.key]);
            elems.forEach((e, k) => o.push(e.expect(a?.[k])));
          },
        });
      }
    } else if (n.kind === "group" && t.kind === "group") {
      const g = `g${tmp++}`;
      const innerFixed = blockPieces(t.fields, n.fields, g);
      // a group without fixed-size members has no composite in the root block
      if (innerFixed.length === 0) return;
      out.push({
        java: [`{ final var ${g} = ${recv}.${acc}();`, ...innerFixed.flatMap((p) => p.java.map((l) => `  ${l}`)), "}"],
        expect: (rec, o) => {
          const sub = rec?.[f.key] as TypedRecord | undefined;
          for (const p of innerFixed) p.expect(sub, o);
        },
      });
    }
  });
  return out;
}

/** SBE names per plan node, from the exporter's own model (so the harness follows the XML). */
let names = new Map<SbeField, string>();
function nameOf(pf: SbeField): string {
  const n = names.get(pf);
  if (n === undefined) throw new Error(`no SBE name for ${pf.keyPath}`);
  return n;
}

/** The layout path (keys) of every plan node, for hoisted groups and data. */
function pathsOf(layout: Layout, plan: SbeField[]): Map<SbeField, { keys: string[]; field: Field }> {
  const out = new Map<SbeField, { keys: string[]; field: Field }>();
  const walk = (fields: Field[], pfs: SbeField[], prefix: string[]) =>
    pfs.forEach((pf, i) => {
      const f = fields[i]!;
      out.set(pf, { keys: [...prefix, f.key], field: f });
      if (pf.node.kind === "group" && f.type.kind === "group") walk(f.type.fields, pf.node.fields, [...prefix, f.key]);
    });
  walk(layout.fields, plan, []);
  return out;
}

function valueAt(rec: TypedRecord, keys: string[]): FieldValue | undefined {
  let v: FieldValue | undefined = rec;
  for (const k of keys) {
    if (v === undefined || typeof v !== "object" || Array.isArray(v) || v instanceof Uint8Array) return undefined;
    v = (v as TypedRecord)[k];
  }
  return v;
}

export interface LayoutHarness {
  className: string;
  java: string;
  expect(rec: TypedRecord, byteLength: number): string[];
}

export function layoutHarness(layout: Layout, index: number): LayoutHarness {
  const model = sbeSchemaModel(layout);
  names = model.names;
  const paths = pathsOf(layout, model.plan.fields);
  const pkg = model.package;
  const className = `H${index}`;
  const pieces = blockPieces(layout.fields, model.plan.fields, "d");
  const tail: Piece[] = [];
  for (const g of model.groups) {
    const { keys, field } = paths.get(g.plan)!;
    const n = g.plan.node;
    if (n.kind !== "repeat" || field.type.kind !== "array") continue;
    const v = `r${tmp++}`;
    const elemType = field.type.of;
    let body: string;
    let one: (x: ScalarValue) => string;
    if (n.elem.kind === "var") {
      body = n.elem.of === "string" ? `o.s(${v}.value());` : `{ final byte[] t = new byte[${v}.valueLength()]; ${v}.getValue(t, 0, t.length); o.hex(t); }`;
      one = (x) => (typeof x === "string" ? x : hex(x as Uint8Array));
    } else {
      const p = scalarPiece(n.elem, elemType, v, "value", undefined);
      body = p.java;
      one = (x) => p.expect(x);
    }
    tail.push({
      java: [`{ final var ${v} = d.${lowerFirst(g.name)}(); o.i(${v}.count()); while (${v}.hasNext()) { ${v}.next(); ${body} } }`],
      expect: (rec, o) => {
        const a = (rec ? arrayOf(valueAt(rec, keys)) : undefined) ?? [];
        o.push(String(a.length));
        for (const x of a) o.push(one(x));
      },
    });
  }
  for (const dd of model.data) {
    const { keys } = paths.get(dd.plan)!;
    const acc = lowerFirst(dd.name);
    tail.push({
      java: [dd.type === "varStringEncoding" ? `o.s(d.${acc}());` : `{ final byte[] t = new byte[d.${acc}Length()]; d.get${upperFirst(dd.name)}(t, 0, t.length); o.hex(t); }`],
      expect: (rec, o) => {
        const x = rec ? valueAt(rec, keys) : undefined;
        o.push(x === undefined ? "" : typeof x === "string" ? x : hex(x as Uint8Array));
      },
    });
  }
  const all = [...pieces, ...tail];
  const java = [
    "package harness;",
    "",
    `final class ${className} {`,
    `  private static final ${pkg}.MessageHeaderDecoder HDR = new ${pkg}.MessageHeaderDecoder();`,
    `  private static final ${pkg}.${model.message}Decoder D = new ${pkg}.${model.message}Decoder();`,
    "",
    "  static String run(final org.agrona.concurrent.UnsafeBuffer buf) {",
    "    final Out o = new Out();",
    "    final var d = D.wrapAndApplyHeader(buf, 0, HDR);",
    "    o.i(HDR.blockLength()); o.i(HDR.templateId()); o.i(HDR.schemaId()); o.i(HDR.version());",
    ...all.flatMap((p) => p.java.map((l) => `    ${l}`)),
    "    o.i(d.limit());",
    "    return o.toString();",
    "  }",
    "}",
    "",
  ].join("\n");
  return {
    className,
    java,
    expect(rec, byteLength) {
      const out = [String(model.plan.blockLength), String(model.templateId), String(model.schemaId), String(model.version)];
      for (const p of all) p.expect(rec, out);
      out.push(String(byteLength));
      return out;
    },
  };
}

/** Out (token list as one JSON array line) and Main (dispatch "index hex" lines to the layout harnesses). */
export function commonJava(harnesses: LayoutHarness[]): Array<{ file: string; source: string }> {
  const out = `package harness;

import java.util.function.IntUnaryOperator;

final class Out {
  private final StringBuilder sb = new StringBuilder("[");
  private boolean first = true;

  private void raw(final String token) {
    if (!first) sb.append(',');
    first = false;
    sb.append('"');
    for (int k = 0; k < token.length(); k++) {
      final char c = token.charAt(k);
      if (c == '"' || c == '\\\\') sb.append('\\\\').append(c);
      else if (c < 0x20) sb.append(String.format("\\\\u%04x", (int) c));
      else sb.append(c);
    }
    sb.append('"');
  }

  void i(final long v) { raw(String.valueOf(v)); }
  void u64(final long v) { raw(Long.toUnsignedString(v)); }
  void f(final float v) { raw(Integer.toHexString(Float.floatToRawIntBits(v))); }
  void d(final double v) { raw(Long.toHexString(Double.doubleToRawLongBits(v))); }
  void s(final String v) { raw(v); }
  void hex(final byte[] b) {
    final StringBuilder h = new StringBuilder();
    for (final byte x : b) h.append(String.format("%02x", x & 0xff));
    raw(h.toString());
  }
  void bytes(final IntUnaryOperator get, final int n) {
    final byte[] b = new byte[n];
    for (int k = 0; k < n; k++) b[k] = (byte) get.applyAsInt(k);
    hex(b);
  }

  @Override public String toString() { return sb.append(']').toString(); }
}
`;
  const main = `package harness;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;

public final class Main {
  public static void main(final String[] args) throws Exception {
    final PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isEmpty()) continue;
      final int sp = line.indexOf(' ');
      final int which = Integer.parseInt(line.substring(0, sp));
      final String hex = line.substring(sp + 1);
      final byte[] bytes = new byte[hex.length() / 2];
      for (int k = 0; k < bytes.length; k++) bytes[k] = (byte) Integer.parseInt(hex.substring(2 * k, 2 * k + 2), 16);
      final UnsafeBuffer buf = new UnsafeBuffer(bytes);
      String result;
      try {
        switch (which) {
${harnesses.map((h, i) => `          case ${i}: result = ${h.className}.run(buf); break;`).join("\n")}
          default: result = "[\\"ERR\\",\\"no harness " + which + "\\"]";
        }
      } catch (final RuntimeException e) {
        result = "[\\"ERR\\",\\"" + e.toString().replace('"', '\\'') + "\\"]";
      }
      out.println(result);
    }
    out.flush();
  }
}
`;
  return [
    { file: "harness/Out.java", source: out },
    { file: "harness/Main.java", source: main },
    ...harnesses.map((h) => ({ file: `harness/${h.className}.java`, source: h.java })),
  ];
}
