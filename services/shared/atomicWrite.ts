// Files other programs or people read (layouts, exports, PDFs, bundles, pid/state files) are
// replaced whole: a sibling temp file, fsync'd, renamed over the target, then the directory synced.
// A reader or a crash sees the old content or the new one, never half a write. The one place the
// host, the services and the CLI do this.
import { randomBytes } from "node:crypto";
import { mkdirSync, openSync, closeSync, fsyncSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { open, rename, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";

const tempNameFor = (file: string) =>
  path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);

export function writeFileAtomic(file: string, content: string | Uint8Array, mode = 0o644): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = tempNameFor(file);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "wx", mode);
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off);
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
  syncDirSync(dir);
}

/** The same without blocking the event loop (the host's handlers); the directory must exist. */
export async function writeFileAtomicAsync(file: string, content: string | Uint8Array, mode = 0o644): Promise<void> {
  const dir = path.dirname(file);
  const tmp = tempNameFor(file);
  let fh: FileHandle | undefined;
  try {
    fh = await open(tmp, "wx", mode);
    await fh.writeFile(content);
    await fh.sync();
    await fh.close();
    fh = undefined;
    await rename(tmp, file);
  } catch (e) {
    await fh?.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw e;
  }
  await syncDir(dir);
}

/** The rename is durable only once the directory entry is on disk; Windows cannot open directories. */
function syncDirSync(dir: string): void {
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

async function syncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, "r");
    await fh.sync();
  } catch {
    // best effort: the file content is synced already
  } finally {
    await fh?.close().catch(() => {});
  }
}
