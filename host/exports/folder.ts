// Writes export files into a folder: each file through a sibling temp file and a rename (readers see
// the old file or the new one, never half of one), never through a symlink, never outside the folder.
import { randomBytes } from "node:crypto";
import { lstat, mkdir, open, realpath, rename, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { safeArchivePath } from "../../codecs/src/exporters/zip.ts";
import type { ExportFile } from "../../codecs/src/exporters/types.ts";

export class ExportFolderError extends Error {
  override readonly name = "ExportFolderError";
}

async function writeAtomically(target: string, data: string | Uint8Array): Promise<void> {
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  let fh: FileHandle | undefined;
  try {
    fh = await open(tmp, "wx", 0o644);
    await fh.writeFile(data);
    await fh.sync();
    await fh.close();
    fh = undefined;
    await rename(tmp, target);
  } catch (e) {
    await fh?.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw e;
  }
}

/** A path we may replace: absent, or a regular file (not a link, directory or device). */
async function replaceable(target: string): Promise<void> {
  try {
    const st = await lstat(target);
    if (!st.isFile()) throw new ExportFolderError(`${target} exists and is not a regular file`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

function fsMessage(e: unknown, what: string): ExportFolderError {
  if (e instanceof ExportFolderError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  return new ExportFolderError(`cannot write ${what}: ${code === "EACCES" || code === "EPERM" ? "permission denied" : code === "ENOTDIR" ? "a parent is not a folder" : (e as Error).message}`);
}

/** `dir` must be absolute; it is created when missing. Returns the absolute paths written. */
export async function writeExportFolder(dir: string, files: readonly Pick<ExportFile, "path" | "content">[]): Promise<string[]> {
  if (!path.isAbsolute(dir)) throw new ExportFolderError(`"${dir}" is not an absolute path`);
  if (dir.includes("\0")) throw new ExportFolderError("the folder path contains a NUL character");
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    throw fsMessage(e, dir);
  }
  const root = await realpath(dir).catch((e) => Promise.reject(fsMessage(e, dir)));
  const written: string[] = [];
  for (const f of files) {
    if (!safeArchivePath(f.path)) throw new ExportFolderError(`refusing the export path ${JSON.stringify(f.path)}`);
    const target = path.join(root, ...f.path.split("/"));
    try {
      await mkdir(path.dirname(target), { recursive: true });
      // a sub-folder that is a link could point anywhere: the parent must still resolve inside the folder
      const parent = await realpath(path.dirname(target));
      if (parent !== root && !parent.startsWith(root + path.sep)) throw new ExportFolderError(`${f.path} would be written outside ${dir}`);
      await replaceable(target);
      await writeAtomically(target, f.content);
    } catch (e) {
      throw fsMessage(e, target);
    }
    written.push(target);
  }
  return written;
}

/** One file (a zip), written the same way. */
export async function writeExportFile(file: string, data: Uint8Array): Promise<void> {
  if (!path.isAbsolute(file)) throw new ExportFolderError(`"${file}" is not an absolute path`);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await replaceable(file);
    await writeAtomically(file, data);
  } catch (e) {
    throw fsMessage(e, file);
  }
}
