// A Java harness over the codecs the SBE tool generates from our schema. Every wire value of a record
// is one token, computed here from the SOURCE record with this file's own conversions (wire raw of
// fixed-point, timestamps, enums; SBE null values; text timestamps): the generated decoders read our
// bytes and print their tokens, which must equal these; the generated encoders write these tokens,
// and their bytes must equal ours. Our plan only tells which wire type and which setter each token has
// (the same facts the XML gives the tool).
import type { Field, FieldValue, Layout, ScalarType, ScalarValue, TypedRecord } from "#codecs";
import type { PrimCode, Raw, SbeField, SbeScalar } from "#codecs/plans";
import { sbeSchemaModel, type SbeSchemaModel } from "../../src/sbe/model.ts";
import { rawOf, sbeNullText, timeText } from "../support/wireValues.ts";

type Expect = (rec: TypedRecord | undefined, out: string[]) => void;

interface Piece {
  java: string[];
  /** the same values written with the generated encoder, token by token from `t[k++]` */
  enc: string[];
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

const JAVA_OUT: Record<PrimCode, string> = {
  b: "i",
  B: "i",
  h: "i",
  H: "i",
  i: "i",
  I: "i",
  q: "i",
  Q: "u64",
  f: "f",
  d: "d",
};
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);
const upperFirst = (s: string) => s[0]!.toUpperCase() + s.slice(1);
let tmp = 0;

/** How the encoder harness turns a token back into the setter's Java type. */
const JAVA_IN: Record<PrimCode, (tok: string) => string> = {
  b: (x) => `(byte) Long.parseLong(${x})`,
  B: (x) => `(short) Long.parseLong(${x})`,
  h: (x) => `(short) Long.parseLong(${x})`,
  H: (x) => `(int) Long.parseLong(${x})`,
  i: (x) => `(int) Long.parseLong(${x})`,
  I: (x) => `Long.parseLong(${x})`,
  q: (x) => `Long.parseLong(${x})`,
  Q: (x) => `Long.parseUnsignedLong(${x})`,
  f: (x) => `Float.intBitsToFloat(Integer.parseUnsignedInt(${x}, 16))`,
  d: (x) => `Double.longBitsToDouble(Long.parseUnsignedLong(${x}, 16))`,
};

/** One fixed-size value read by `read` (a Java expression prefix such as `d.rssi`) and written by `recvE` (`e.rssi`). */
function scalarPiece(
  s: SbeScalar,
  t: ScalarType,
  recv: string,
  acc: string,
  index: string | undefined,
  recvE: string,
): { java: string; enc: string; expect: (v: ScalarValue | undefined) => string } {
  const call = (suffix = "") => `${recv}.${acc}${suffix}(${index ?? ""})`;
  if (s.kind === "num") {
    const enumLike = (t.kind === "bool" || t.kind === "enum") && index === undefined;
    const code = s.slot.code;
    return {
      java: `o.${JAVA_OUT[code]}(${call(enumLike ? "Raw" : "")});`,
      enc: enumLike
        ? `In.setEnum(${recvE}, "${acc}", Long.parseLong(t[k++]));`
        : `${recvE}.${acc}(${index ? `${index}, ` : ""}${JAVA_IN[code]("t[k++]")});`,
      expect: (v) => (v === undefined ? sbeNullText(code) : rawText(code, rawOf(t, v, code))),
    };
  }
  if (s.kind === "chars") {
    return {
      java: `o.s(${call()});`,
      enc: `${recvE}.put${upperFirst(acc)}(In.chars(t[k++], ${s.size}), 0);`,
      expect: (v) => (v === undefined ? "" : t.kind === "timestamp" ? timeText(t, v as number) : (v as string)),
    };
  }
  const n = `b${tmp++}`;
  return {
    java: `{ final var ${n} = ${recv}; o.bytes(i -> ${n}.${acc}(i), ${s.size}); }`,
    enc: `${recvE}.put${upperFirst(acc)}(In.hex(t[k++]), 0, ${s.size});`,
    expect: (v) => (v === undefined ? "ff".repeat(s.size) : hex(v as Uint8Array)),
  };
}

function arrayOf(v: FieldValue | undefined): ScalarValue[] | undefined {
  return v as ScalarValue[] | undefined;
}

/** Root block values of one level (fixed, fixed arrays, group composites), in plan order. */
function blockPieces(fields: Field[], plan: SbeField[], recv: string, recvE: string): Piece[] {
  const out: Piece[] = [];
  plan.forEach((pf, i) => {
    const f = fields[i]!;
    const t = f.type;
    const acc = lowerFirst(nameOf(pf));
    const n = pf.node;
    if (n.kind === "fixed" && t.kind !== "array" && t.kind !== "group") {
      const p = scalarPiece(n.scalar, t, recv, acc, undefined, recvE);
      out.push({
        java: [p.java],
        enc: [p.enc],
        expect: (rec, o) => o.push(p.expect(rec?.[f.key] as ScalarValue | undefined)),
      });
    } else if (n.kind === "fixedArray" && t.kind === "array") {
      if (n.scalar.kind === "num") {
        const p = scalarPiece(n.scalar, t.of, recv, acc, "i", recvE);
        out.push({
          java: [`for (int i = 0; i < ${n.count}; i++) ${p.java}`],
          enc: [`for (int i = 0; i < ${n.count}; i++) ${p.enc}`],
          expect: (rec, o) => {
            const a = arrayOf(rec?.[f.key]);
            for (let k = 0; k < n.count; k++) o.push(p.expect(a?.[k]));
          },
        });
      } else {
        const c = `c${tmp++}`;
        const ce = `${c}e`;
        const elems = Array.from({ length: n.count }, (_, k) => scalarPiece(n.scalar, t.of, c, `e${k}`, undefined, ce));
        out.push({
          java: [`{ final var ${c} = ${recv}.${acc}();`, ...elems.map((e) => `  ${e.java}`), "}"],
          enc: [`{ final var ${ce} = ${recvE}.${acc}();`, ...elems.map((e) => `  ${e.enc}`), "}"],
          expect: (rec, o) => {
            const a = arrayOf(rec?.[f.key]);
            elems.forEach((e, k) => o.push(e.expect(a?.[k])));
          },
        });
      }
    } else if (n.kind === "group" && t.kind === "group") {
      const g = `g${tmp++}`;
      const ge = `${g}e`;
      const innerFixed = blockPieces(t.fields, n.fields, g, ge);
      // a group without fixed-size members has no composite in the root block
      if (innerFixed.length === 0) return;
      out.push({
        java: [`{ final var ${g} = ${recv}.${acc}();`, ...innerFixed.flatMap((p) => p.java.map((l) => `  ${l}`)), "}"],
        enc: [`{ final var ${ge} = ${recvE}.${acc}();`, ...innerFixed.flatMap((p) => p.enc.map((l) => `  ${l}`)), "}"],
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
  /** every wire value of the source record, header first, the message length last */
  expect(rec: TypedRecord, byteLength: number): string[];
}

export function layoutHarness(layout: Layout, index: number): LayoutHarness {
  const model = sbeSchemaModel(layout);
  names = model.names;
  const paths = pathsOf(layout, model.plan.fields);
  const pkg = model.package;
  const className = `H${index}`;
  const pieces = blockPieces(layout.fields, model.plan.fields, "d", "e");
  const tail: Piece[] = [];
  for (const g of model.groups) {
    const { keys, field } = paths.get(g.plan)!;
    const n = g.plan.node;
    if (n.kind !== "repeat" || field.type.kind !== "array") continue;
    const v = `r${tmp++}`;
    const elemType = field.type.of;
    const ve = `${v}e`;
    let body: string;
    let bodyE: string;
    let one: (x: ScalarValue) => string;
    if (n.elem.kind === "var") {
      body =
        n.elem.of === "string"
          ? `o.s(${v}.value());`
          : `{ final byte[] t = new byte[${v}.valueLength()]; ${v}.getValue(t, 0, t.length); o.hex(t); }`;
      bodyE =
        n.elem.of === "string"
          ? `${ve}.value(t[k++]);`
          : `{ final byte[] b = In.hex(t[k++]); ${ve}.putValue(b, 0, b.length); }`;
      one = (x) => (typeof x === "string" ? x : hex(x as Uint8Array));
    } else {
      const p = scalarPiece(n.elem, elemType, v, "value", undefined, ve);
      body = p.java;
      bodyE = p.enc;
      one = (x) => p.expect(x);
    }
    tail.push({
      java: [
        `{ final var ${v} = d.${lowerFirst(g.name)}(); o.i(${v}.count()); while (${v}.hasNext()) { ${v}.next(); ${body} } }`,
      ],
      enc: [
        `{ final int n = Integer.parseInt(t[k++]); final var ${ve} = e.${lowerFirst(g.name)}Count(n); for (int j = 0; j < n; j++) { ${ve}.next(); ${bodyE} } }`,
      ],
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
      java: [
        dd.type === "varStringEncoding"
          ? `o.s(d.${acc}());`
          : `{ final byte[] t = new byte[d.${acc}Length()]; d.get${upperFirst(dd.name)}(t, 0, t.length); o.hex(t); }`,
      ],
      enc: [
        dd.type === "varStringEncoding"
          ? `e.${acc}(t[k++]);`
          : `{ final byte[] b = In.hex(t[k++]); e.put${upperFirst(dd.name)}(b, 0, b.length); }`,
      ],
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
    `  private static final ${pkg}.MessageHeaderEncoder HDR_E = new ${pkg}.MessageHeaderEncoder();`,
    `  private static final ${pkg}.${model.message}Encoder E = new ${pkg}.${model.message}Encoder();`,
    "",
    "  /** writes the tokens (header skipped: the encoder applies its own) and returns the message length */",
    "  static int encode(final org.agrona.concurrent.UnsafeBuffer buf, final String[] t) throws ReflectiveOperationException {",
    "    int k = 4;",
    "    final var e = E.wrapAndApplyHeader(buf, 0, HDR_E);",
    ...all.flatMap((p) => p.enc.map((l) => `    ${l}`)),
    "    return e.limit();",
    "  }",
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
      const out = [
        String(model.plan.blockLength),
        String(model.templateId),
        String(model.schemaId),
        String(model.version),
      ];
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
  const input = `package harness;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/** Token → setter argument helpers for the encoding side. */
final class In {
  static byte[] hex(final String h) {
    final byte[] b = new byte[h.length() / 2];
    for (int k = 0; k < b.length; k++) b[k] = (byte) Integer.parseInt(h.substring(2 * k, 2 * k + 2), 16);
    return b;
  }

  /** a char array's bytes: the text, NUL padded */
  static byte[] chars(final String s, final int size) {
    final byte[] text = s.getBytes(StandardCharsets.UTF_8);
    if (text.length > size) throw new IllegalArgumentException("text longer than " + size + " bytes: " + s);
    final byte[] b = new byte[size];
    System.arraycopy(text, 0, b, 0, text.length);
    return b;
  }

  /** calls the generated enum setter with the constant whose raw value is given (NULL_VAL for the null value) */
  static void setEnum(final Object encoder, final String name, final long raw) throws ReflectiveOperationException {
    for (final Method m : encoder.getClass().getMethods()) {
      if (!m.getName().equals(name) || m.getParameterCount() != 1 || !m.getParameterTypes()[0].isEnum()) continue;
      final Class<?> type = m.getParameterTypes()[0];
      for (final Method get : type.getMethods()) {
        if (!get.getName().equals("get") || get.getParameterCount() != 1) continue;
        final Class<?> p = get.getParameterTypes()[0];
        final Object arg = p == short.class ? (Object) (short) raw : p == int.class ? (Object) (int) raw : (Object) raw;
        m.invoke(encoder, get.invoke(null, arg));
        return;
      }
    }
    throw new IllegalStateException("no enum setter " + name + " on " + encoder.getClass().getName());
  }
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
      if (line.startsWith("E ")) {
        // "E <layout> x<hex token> x<hex token> ...": encode the tokens, print the message bytes as hex
        final String[] parts = line.split(" ");
        final int which = Integer.parseInt(parts[1]);
        final String[] t = new String[parts.length - 2];
        for (int k = 0; k < t.length; k++) t[k] = new String(In.hex(parts[k + 2].substring(1)), StandardCharsets.UTF_8);
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[1 << 16]);
        String result;
        try {
          final int n;
          switch (which) {
${harnesses.map((h, i) => `            case ${i}: n = ${h.className}.encode(buf, t); break;`).join("\n")}
            default: throw new IllegalArgumentException("no harness " + which);
          }
          final StringBuilder h = new StringBuilder();
          for (int k = 0; k < n; k++) h.append(String.format("%02x", buf.getByte(k) & 0xff));
          result = h.toString();
        } catch (final Exception e) {
          result = "ERR " + e;
        }
        out.println(result);
        continue;
      }
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
    { file: "harness/In.java", source: input },
    { file: "harness/Main.java", source: main },
    ...harnesses.map((h) => ({ file: `harness/${h.className}.java`, source: h.java })),
  ];
}
