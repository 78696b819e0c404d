// A block-style YAML writer for the plain data a .ksy holds (maps, lists, strings, numbers, booleans):
// Kaitai specs are read by people, so no flow-style JSON blobs.

export type YamlValue = string | number | boolean | YamlValue[] | { [key: string]: YamlValue };

const PLAIN = /^[A-Za-z_][A-Za-z0-9_.\-/ ]*$/;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;

function scalar(v: string | number | boolean): string {
  if (typeof v !== "string") return String(v);
  // anything a YAML reader could take for another type, or that holds syntax, goes double-quoted (JSON escapes are YAML escapes)
  return PLAIN.test(v) && !RESERVED.test(v) && !v.endsWith(" ") ? v : JSON.stringify(v);
}

function key(k: string): string {
  return /^(?:[A-Za-z_][A-Za-z0-9_-]*|-?\d+)$/.test(k) && !RESERVED.test(k) ? k : JSON.stringify(k);
}

const isMap = (v: YamlValue): v is { [key: string]: YamlValue } => typeof v === "object" && !Array.isArray(v);

function lines(v: YamlValue, indent: string): string[] {
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (const item of v) {
      if (isMap(item) && Object.keys(item).length > 0) {
        const inner = lines(item, `${indent}  `);
        out.push(`${indent}- ${inner[0]!.slice(indent.length + 2)}`, ...inner.slice(1));
      } else if (Array.isArray(item) || isMap(item)) out.push(`${indent}- ${Array.isArray(item) ? "[]" : "{}"}`);
      else out.push(`${indent}- ${scalar(item)}`);
    }
    return out;
  }
  if (isMap(v)) {
    const out: string[] = [];
    for (const [k, val] of Object.entries(v)) {
      if (Array.isArray(val)) {
        if (val.length === 0) out.push(`${indent}${key(k)}: []`);
        else out.push(`${indent}${key(k)}:`, ...lines(val, `${indent}  `));
      } else if (isMap(val)) {
        if (Object.keys(val).length === 0) out.push(`${indent}${key(k)}: {}`);
        else out.push(`${indent}${key(k)}:`, ...lines(val, `${indent}  `));
      } else out.push(`${indent}${key(k)}: ${scalar(val)}`);
    }
    return out;
  }
  return [`${indent}${scalar(v)}`];
}

export function toYaml(v: YamlValue): string {
  return `${lines(v, "").join("\n")}\n`;
}
