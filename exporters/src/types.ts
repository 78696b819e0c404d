// The contract every export generator implements; the Export page, the CLI and the tests list them
// through one registry and never care which language a file is in.
import type { z } from "zod";
import type { Layout } from "#codecs";

export interface ExportFile {
  /** relative, "/"-separated path inside the export folder or zip */
  path: string;
  content: string;
  language: "proto" | "c" | "h" | "ini" | "json" | "xml" | "yaml" | "js" | "ts" | "md" | "python" | "text";
}

export interface Exporter<O extends z.ZodObject = z.ZodObject> {
  id: string;
  label: string;
  description: string;
  /** its options (exporters/src/options.ts); runExports parses them before calling generate. None when left out. */
  options?: O;
  /** throws LayoutError when the layout cannot be expressed by this export */
  generate(layout: Layout, options: z.output<O>): ExportFile[];
}

/**
 * An export option of the wrong type, out of range or unknown: `option` is its key, `reason` says what
 * is wrong in words ("must be a whole number from 1 to 604800"), `label` is how the form names it.
 */
export class ExportOptionError extends Error {
  override readonly name = "ExportOptionError";
  constructor(
    readonly option: string,
    readonly reason: string,
    readonly label?: string,
  ) {
    super(label ? `${label} (${option}) ${reason}` : `${option} ${reason}`);
  }
}
