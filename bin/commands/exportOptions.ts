// The export options on the command line, built from the exporters' option schemas: one flag per
// option (the name its `.meta()` gives), its help line, and the flag values turned into the options
// object runExports parses. Nothing here names an exporter or an option.
import { exportOptionFields, ExportOptionError, type OptionField } from "#exporters";
import { commaList, type Options, UsageError } from "./common.ts";

type Field = OptionField & { exporter: string };
type FlagValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

/** parseArgs's description of every option flag: lists repeat or take commas, the rest are single. */
export function exportOptionFlags(): Options {
  return Object.fromEntries(
    exportOptionFields().map((f) => [
      f.flag,
      f.kind === "boolean" ? { type: "boolean" } : { type: "string", multiple: f.kind === "choices" },
    ]),
  ) as Options;
}

/** A number stays text when it is not one, so the schema's refusal names it ("must be a whole number …"). */
const numberOrText = (v: string) => (/^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);

/** The options object of the flags given: values as the schemas take them, nothing dropped. */
export function optionsFromFlags(values: FlagValues): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const f of exportOptionFields()) {
    const v = values[f.flag];
    if (v === undefined) continue;
    if (f.kind === "choices") options[f.key] = commaList(Array.isArray(v) ? v : [v]);
    else if (f.kind === "integer" || f.kind === "number") options[f.key] = numberOrText(String(v));
    else options[f.key] = v;
  }
  return options;
}

/** The flags given for exports that are not chosen: they do nothing, and the user should know. */
export function unusedOptionFlags(options: Record<string, unknown>, chosen: readonly string[]): string[] {
  if (!chosen.length) return [];
  return exportOptionFields()
    .filter((f) => options[f.key] !== undefined && !chosen.includes(f.exporter))
    .map((f) => `--${f.flag} is an option of the ${f.exporter} export, which --only leaves out: not used`);
}

/** A refused option as a usage error that names the flag the user typed. */
export function optionFlagError(e: ExportOptionError): UsageError {
  const f = exportOptionFields().find((x) => x.key === e.option);
  return new UsageError(f ? `--${f.flag} ${e.reason}` : e.message);
}

function valueHint(f: Field): string {
  if (f.kind === "boolean") return "";
  if (f.kind === "choices") return ` ${f.choices!.map((c) => c.value).join(",")}`;
  if (f.kind === "choice") return ` ${f.choices!.map((c) => c.value).join("|")}`;
  if (f.kind === "integer" || f.kind === "number")
    return f.min !== undefined && f.max !== undefined ? ` ${f.min}..${f.max}` : " N";
  // text: the key's last word ("deviceKey" → KEY)
  return ` ${(f.key.match(/[A-Z]?[a-z0-9]+$/)?.[0] ?? f.key).toUpperCase()}`;
}

function defaultHint(f: Field): string {
  if (f.default !== undefined)
    return ` (default: ${Array.isArray(f.default) ? f.default.join(",") : String(f.default)})`;
  return f.unset ? ` (default: ${f.unset})` : "";
}

/** The help's option lines, grouped by export. */
export function exportOptionsHelp(): string {
  const fields = exportOptionFields();
  const lines: string[] = [];
  for (const exporter of [...new Set(fields.map((f) => f.exporter))]) {
    lines.push(`    ${exporter}:`);
    for (const f of fields.filter((x) => x.exporter === exporter))
      lines.push(`      --${f.flag}${valueHint(f)}`, `          ${f.description}${defaultHint(f)}`);
  }
  return lines.join("\n");
}
