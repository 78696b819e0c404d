// Reads every field of a message through flatc-generated code, in two languages, into the same JSON:
// the TypeScript accessors (flatc --ts + npm flatbuffers) walked here, and a C++ program written here
// against the header flatc --cpp generates (libflatbuffers-dev), which also runs the generated
// Verifier first. Both walk the schema as the .fbs states it (parseFbs), slot by slot, so neither side
// knows our codec. Integers come out as decimal text (int64 stays exact), floats as numbers, absent
// tables and strings as null, enums as their number.
import { type FbsSchema, type FbsTable, slotShape } from "#codecs/plans";

export type Walked = null | string | number | Walked[] | { [name: string]: Walked };

const FLOATS = new Set(["float", "double"]);

/** flatc's TypeScript method name for a field (lower camel case: gps_fix → gpsFix). */
export function tsName(field: string): string {
  return field.replace(/_+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

type Accessors = Record<string, (...args: unknown[]) => unknown>;

function scalarValue(scalar: string, v: unknown): Walked {
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return v ? "1" : "0";
  return FLOATS.has(scalar) ? Number(v) : String(v);
}

function walkStruct(schema: FbsSchema, name: string, obj: Accessors): Walked {
  const out: Record<string, Walked> = {};
  for (const f of schema.structFields.get(name) ?? []) {
    const s = slotShape(schema, f.type);
    const v = obj[tsName(f.name)]!.call(obj);
    out[f.name] =
      s.kind === "struct"
        ? walkStruct(schema, s.name, v as Accessors)
        : scalarValue(s.kind === "scalar" ? s.scalar : "", v);
  }
  return out;
}

/** The TypeScript side: every live slot of the table through its generated accessor. */
export function walkTs(schema: FbsSchema, table: FbsTable, obj: Accessors): Walked {
  const out: Record<string, Walked> = {};
  for (const slot of table.slots) {
    if (slot.deprecated) continue;
    const m = tsName(slot.name);
    const call = (...args: unknown[]) => obj[m]!.call(obj, ...args);
    const s = slotShape(schema, slot.type);
    switch (s.kind) {
      case "scalar":
        out[slot.name] = scalarValue(s.scalar, call());
        break;
      case "string":
        out[slot.name] = (call() as string | null) ?? null;
        break;
      case "table": {
        const sub = call() as Accessors | null;
        out[slot.name] = sub ? walkTs(schema, schema.tables.get(s.name)!, sub) : null;
        break;
      }
      case "struct": {
        const sub = call() as Accessors | null;
        out[slot.name] = sub ? walkStruct(schema, s.name, sub) : null;
        break;
      }
      case "vector":
      case "array": {
        const n = obj[`${m}Length`]!.call(obj) as number;
        if (n === 0 && s.kind === "vector" && !vectorPresent(obj, m)) {
          out[slot.name] = null;
          break;
        }
        const items: Walked[] = [];
        for (let i = 0; i < n; i++) {
          const v = call(i);
          const inner = slotShape(schema, s.of);
          items.push(
            inner.kind === "table"
              ? walkTs(schema, schema.tables.get(inner.name)!, v as Accessors)
              : inner.kind === "struct"
                ? walkStruct(schema, inner.name, v as Accessors)
                : inner.kind === "string"
                  ? (v as string)
                  : scalarValue(inner.kind === "scalar" ? inner.scalar : "", v),
          );
        }
        out[slot.name] = items;
        break;
      }
    }
  }
  return out;
}

/** flatc --ts has `<name>Array()` for scalar vectors (null when absent); other vectors: absent = empty. */
function vectorPresent(obj: Accessors, m: string): boolean {
  const arr = obj[`${m}Array`];
  return arr ? arr.call(obj) !== null : true;
}

const CPP_SCALAR: Record<string, string> = {
  bool: "bool",
  byte: "int8_t",
  ubyte: "uint8_t",
  short: "int16_t",
  ushort: "uint16_t",
  int: "int32_t",
  uint: "uint32_t",
  long: "int64_t",
  ulong: "uint64_t",
  float: "float",
  double: "double",
};

/**
 * A C++17 program that verifies each buffer named on its command line with the generated
 * Verify<Root>Buffer and prints one JSON line per buffer: the same JSON walkTs gives.
 */
export function cppWalker(schema: FbsSchema, header: string): string {
  const ns = schema.namespace ? `${schema.namespace.replace(/\./g, "::")}::` : "";
  const fns: string[] = [];
  const scalarOut = (scalar: string, expr: string) =>
    FLOATS.has(scalar) ? `num(static_cast<double>(${expr}))` : `integer(${expr})`;
  const valueOut = (type: string, expr: string, nullable: boolean): string => {
    const s = slotShape(schema, type);
    switch (s.kind) {
      case "scalar":
        return scalarOut(s.scalar, s.enumName ? `static_cast<${CPP_SCALAR[s.scalar]}>(${expr})` : expr);
      case "string":
        return `str(${expr})`;
      case "table":
        return `walk_${s.name}(${expr})`;
      case "struct":
        return nullable ? `walk_${s.name}(${expr})` : `walk_${s.name}(&(${expr}))`;
      default:
        throw new Error(`nested ${type}`);
    }
  };
  for (const [name, fields] of schema.structFields) {
    const body = fields.map(
      (f, i) => `  out += "${i ? "," : ""}\\"${f.name}\\":"; ${valueOut(f.type, `v->${f.name}()`, false)};`,
    );
    fns.push(
      `void walk_${name}(const ${ns}${name} *v) {\n  if (!v) { out += "null"; return; }\n  out += "{";\n${body.join("\n")}\n  out += "}";\n}`,
    );
  }
  for (const t of schema.tables.values()) {
    const body: string[] = [];
    let first = true;
    for (const slot of t.slots) {
      if (slot.deprecated) continue;
      const key = `out += "${first ? "" : ","}\\"${slot.name}\\":";`;
      first = false;
      const s = slotShape(schema, slot.type);
      const get = `v->${slot.name}()`;
      if (s.kind === "vector" || s.kind === "array") {
        const inner = slotShape(schema, s.of);
        const elem =
          inner.kind === "struct"
            ? `walk_${inner.name}(e)`
            : valueOut(s.of, inner.kind === "table" ? "e" : inner.kind === "string" ? "e" : "e", true);
        body.push(
          `  ${key} { auto vec = ${get}; if (!vec) out += "null"; else { out += "["; for (flatbuffers::uoffset_t i = 0; i < vec->size(); i++) { if (i) out += ","; auto e = vec->Get(i); ${elem}; } out += "]"; } }`,
        );
      } else if (s.kind === "scalar" && slot.defaultValue === "null") {
        body.push(
          `  ${key} { auto o = ${get}; if (!o.has_value()) out += "null"; else ${scalarOut(s.scalar, s.enumName ? `static_cast<${CPP_SCALAR[s.scalar]}>(*o)` : "*o")}; }`,
        );
      } else body.push(`  ${key} ${valueOut(slot.type, get, true)};`);
    }
    fns.push(
      `void walk_${t.name}(const ${ns}${t.name} *v) {\n  if (!v) { out += "null"; return; }\n  out += "{";\n${body.join("\n")}\n  out += "}";\n}`,
    );
  }
  const decls = [
    ...[...schema.structFields.keys()].map((n) => `void walk_${n}(const ${ns}${n} *v);`),
    ...[...schema.tables.keys()].map((n) => `void walk_${n}(const ${ns}${n} *v);`),
  ];
  return `// generated by exporters/test/flatbuffers/walk.ts: verify, then print every field as JSON
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>
#include "${header}"

static std::string out;
static void integer(int64_t x) { out += '"' + std::to_string(x) + '"'; }
static void integer(uint64_t x) { out += '"' + std::to_string(x) + '"'; }
static void integer(int32_t x) { out += '"' + std::to_string(x) + '"'; }
static void integer(uint32_t x) { out += '"' + std::to_string(x) + '"'; }
static void integer(int16_t x) { out += '"' + std::to_string(x) + '"'; }
static void integer(uint16_t x) { out += '"' + std::to_string(x) + '"'; }
static void integer(int8_t x) { out += '"' + std::to_string(x) + '"'; }
static void integer(uint8_t x) { out += '"' + std::to_string(x) + '"'; }
static void integer(bool x) { out += x ? "\\"1\\"" : "\\"0\\""; }
static void num(double x) { char b[40]; std::snprintf(b, sizeof b, "%.17g", x); out += b; }
static void str(const flatbuffers::String *s) {
  if (!s) { out += "null"; return; }
  out += '"';
  for (unsigned char c : s->str()) {
    if (c == '"' || c == '\\\\') { out += '\\\\'; out += static_cast<char>(c); }
    else if (c < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\\\u%04x", c); out += b; }
    else out += static_cast<char>(c);
  }
  out += '"';
}
${decls.join("\n")}
${fns.join("\n")}

int main(int argc, char **argv) {
  for (int k = 1; k < argc; k++) {
    std::ifstream f(argv[k], std::ios::binary);
    std::vector<uint8_t> buf((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    flatbuffers::Verifier verifier(buf.data(), buf.size());
    if (!${ns}Verify${schema.root}Buffer(verifier)) { std::printf("{\\"verifier\\":\\"refused\\"}\\n"); continue; }
    out.clear();
    walk_${schema.root}(${ns}Get${schema.root}(buf.data()));
    std::printf("%s\\n", out.c_str());
  }
  return 0;
}
`;
}
