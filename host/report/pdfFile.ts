// Writes a PDF next to where the user asked: a sibling temp file, synced, renamed over the target.
import path from "node:path";
import { writeFileAtomicAsync } from "#services/shared/atomicWrite.ts";
import { HostError } from "../errors.ts";

/** What a printer returned must at least start like a PDF. */
export function assertPdf(bytes: Uint8Array): void {
  if (bytes.length < 5 || String.fromCharCode(...bytes.subarray(0, 5)) !== "%PDF-")
    throw new HostError("internal", "the printer did not return a PDF");
}

export async function writePdfFile(file: string, bytes: Uint8Array): Promise<string> {
  if (!path.isAbsolute(file)) throw new HostError("bad_request", `"${file}" is not an absolute path`);
  assertPdf(bytes);
  const target = file.toLowerCase().endsWith(".pdf") ? file : `${file}.pdf`;
  try {
    await writeFileAtomicAsync(target, bytes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new HostError(
      code === "ENOENT" ? "not_found" : code === "EACCES" || code === "EPERM" ? "forbidden" : "internal",
      `cannot write ${target}: ${code ?? (e as Error).message}`,
    );
  }
  return target;
}
