// HostApi methods of the Export page: the export list, generated files for a project or a layout,
// saving them into a folder on the host, and a zip for browser downloads.
import { z } from "zod";

const id = z.string().min(1).max(64);

/** What to export: a saved project or a layout document, the exports (all when empty) and their options. */
const exportRequest = z
  .object({
    projectId: id.optional(),
    layout: z.unknown().optional(),
    exporterIds: z.array(z.string().min(1).max(64)).max(64).default([]),
    options: z
      .record(
        z.string().max(64),
        z.union([z.string().max(256), z.number(), z.boolean(), z.array(z.string().max(64)).max(16)]),
      )
      .default({}),
  })
  .refine((r) => (r.projectId === undefined) !== (r.layout === undefined), {
    message: "give exactly one of projectId or layout",
  });

const exportFile = z.object({
  path: z.string(),
  content: z.string(),
  language: z.string(),
  exporter: z.string(),
});

const problem = z.object({
  exporter: z.string(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
});

/** One option of an export as the Export page's form draws it (exporters/src/options.ts derives it from the schema). */
const optionField = z.object({
  key: z.string(),
  flag: z.string(),
  label: z.string(),
  description: z.string(),
  kind: z.enum(["choice", "choices", "text", "integer", "number", "boolean"]),
  choices: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  unset: z.string().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  minItems: z.number().optional(),
  maxLength: z.number().optional(),
  pattern: z.string().optional(),
});

export const exportsMethods = {
  /** every export with its options; a bad option value in the other methods is a bad_request whose issue path is `options.<key>` */
  "exports.list": {
    req: z.object({}),
    res: z.array(
      z.object({ id: z.string(), label: z.string(), description: z.string(), options: z.array(optionField) }),
    ),
  },
  "exports.generate": {
    req: exportRequest,
    res: z.object({ files: z.array(exportFile), problems: z.array(problem) }),
  },
  /** writes the files into `path` (absolute; created when missing), each by temp file + rename */
  "exports.saveToFolder": {
    req: exportRequest.and(z.object({ path: z.string().min(1).max(4096) })),
    res: z.object({ dir: z.string(), written: z.number().int(), problems: z.array(problem) }),
  },
  /** the files as one zip (stored), base64, for a browser download */
  "exports.zip": {
    req: exportRequest,
    res: z.object({ fileName: z.string(), base64: z.string(), files: z.number().int(), problems: z.array(problem) }),
  },
} as const;
