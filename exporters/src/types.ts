// The contract every export generator implements; the Export page, the CLI and the tests list them
// through one registry and never care which language a file is in.
import type { Layout } from "#codecs";

export interface ExportFile {
  /** relative, "/"-separated path inside the export folder or zip */
  path: string;
  content: string;
  language: "proto" | "c" | "h" | "ini" | "json" | "xml" | "yaml" | "js" | "ts" | "md" | "python" | "text";
}

export interface Exporter {
  id: string;
  label: string;
  description: string;
  /** throws LayoutError when the layout cannot be expressed by this export */
  generate(layout: Layout, options?: Record<string, unknown>): ExportFile[];
}

/** An export option that is missing, of the wrong type or out of range; `option` names it. */
export class ExportOptionError extends Error {
  override readonly name = "ExportOptionError";
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(`${option} ${message}`);
  }
}
