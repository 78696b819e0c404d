// Files other programs read (bundles, pid/state files) are replaced whole: a reader or a crash sees
// the old content or the new one, never half a write.
import { randomBytes } from "node:crypto";
import { mkdirSync, openSync, closeSync, fsyncSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export function writeFileAtomic(file: string, content: string | Uint8Array, mode = 0o644): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "wx", mode);
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, file);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // the temp file was already renamed or never created
    }
    throw e;
  }
  syncDir(dir);
}

/** The rename is durable only once the directory entry is on disk; Windows cannot open directories. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // best effort: the file content is synced already
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
