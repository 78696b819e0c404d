// Code generation's public surface ("#exporters"): the exporter registry, the generators other folders
// call by name, and the zip the Export page downloads. It pulls in every exporter and the firmware
// templates of firmware/templates/: the decoder service must never import it (its Docker image does not
// ship firmware/), and the renderer reaches the exporters through the host (host/api).
export {
  EXPORTERS,
  UnknownExporterError,
  exportOptionFields,
  runExports,
  type ExportFile,
  type ExportProblem,
  type ExportResult,
  type Exporter,
} from "./registry.ts";
export type { OptionField } from "./options.ts";
export { ExportOptionError } from "./types.ts";
export { generateProto } from "./proto.ts";
export { generateSbeXml } from "./sbeXml.ts";
export { safeArchivePath, zipFiles } from "./zip.ts";
