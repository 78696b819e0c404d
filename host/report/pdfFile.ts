// Writes a PDF next to where the user asked: a sibling temp file, synced, renamed over the target.
import { randomBytes } from "node:crypto";
import { open, rename, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { HostError } from "../errors.ts";

export async function writePdfFile(file: string, bytes: Uint8Array): Promise<string> {
  if (!path.isAbsolute(file)) throw new HostError("bad_request", `"${file}" is not an absolute path`);
  if (bytes.length < 5 || String.fromCharCode(...bytes.subarray(0, 5)) !== "%PDF-") throw new HostError("internal", "the printer did not return a PDF");
  const target = file.toLowerCase().endsWith(".pdf") ? file : `${file}.pdf`;
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  let fh: FileHandle | undefined;
  try {
    fh = await open(tmp, "wx", 0o644);
    await fh.writeFile(bytes);
    await fh.sync();
    await fh.close();
    fh = undefined;
    await rename(tmp, target);
  } catch (e) {
    await fh?.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    const code = (e as NodeJS.ErrnoException).code;
    throw new HostError(code === "ENOENT" ? "not_found" : code === "EACCES" || code === "EPERM" ? "forbidden" : "internal", `cannot write ${target}: ${code ?? (e as Error).message}`);
  }
  return target;
}
