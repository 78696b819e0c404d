// Writes export files into a folder: each file through a sibling temp file and a rename (readers see
// the old file or the new one, never half of one), never through a symlink, never outside the folder.
import { lstat, mkdir, realpath, rename } from "node:fs/promises";
import path from "node:path";
import { type ExportFile, safeArchivePath } from "#exporters";
import { writeFileAtomicAsync } from "#services/shared/atomicWrite.ts";

export class ExportFolderError extends Error {
  override readonly name = "ExportFolderError";
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
  return new ExportFolderError(
    `cannot write ${what}: ${code === "EACCES" || code === "EPERM" ? "permission denied" : code === "ENOTDIR" ? "a parent is not a folder" : (e as Error).message}`,
  );
}

/** `dir` must be absolute; it is created when missing. Returns the absolute paths written. */
export async function writeExportFolder(
  dir: string,
  files: readonly Pick<ExportFile, "path" | "content">[],
): Promise<string[]> {
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
      if (parent !== root && !parent.startsWith(root + path.sep))
        throw new ExportFolderError(`${f.path} would be written outside ${dir}`);
      await replaceable(target);
      await writeFileAtomicAsync(target, f.content);
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
    await writeFileAtomicAsync(file, data);
  } catch (e) {
    throw fsMessage(e, file);
  }
}
