// *.satlayout.json on disk: bounded, validating reads and atomic writes. A file that fails any check
// is only ever read, never rewritten, so a user's damaged file stays exactly as it was for repair.
import { constants as fsConstants } from "node:fs";
import { lstat, open, realpath, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { type Layout, LayoutError, parseLayout } from "#codecs";
import { writeFileAtomicAsync } from "#services/shared/atomicWrite.ts";
import { HostError } from "../errors.ts";
import { parseJsonSafely, UnsafeJsonError } from "../json/safeJson.ts";

/** The largest layout file accepted; real layouts are a few kB, 512 fields stay well under 1 MB. */
export const MAX_LAYOUT_BYTES = 5_000_000;
export const LAYOUT_EXTENSION = ".satlayout.json";

const utf8 = new TextDecoder("utf-8", { fatal: true });

function fsError(e: unknown, file: string, doing: string): HostError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new HostError("not_found", `${file} does not exist`);
  if (code === "EACCES" || code === "EPERM")
    return new HostError("bad_request", `cannot ${doing} ${file}: permission denied`);
  if (code === "EISDIR") return new HostError("bad_request", `${file} is a directory, not a layout file`);
  return new HostError("bad_request", `cannot ${doing} ${file}: ${(e as Error).message}`);
}

/** Only *.json paths: browser mode takes paths from the API, and other files are none of its business. */
function checkPath(file: string): void {
  if (!path.isAbsolute(file)) throw new HostError("bad_request", `"${file}" is not an absolute path`);
  if (file.includes("\0")) throw new HostError("bad_request", "the path contains a NUL character");
  if (!file.toLowerCase().endsWith(".json"))
    throw new HostError("bad_request", `${file}: layout files end in ${LAYOUT_EXTENSION}`);
}

function megabytes(n: number): string {
  return `${(n / 1e6).toFixed(1)} MB`;
}

/**
 * Reads at most MAX_LAYOUT_BYTES + 1 bytes from a regular file. O_NONBLOCK keeps a FIFO from
 * blocking the open; the type and size checks run on the opened descriptor, not on the name.
 */
async function readBounded(file: string): Promise<string> {
  let fh: FileHandle;
  try {
    fh = await open(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw fsError(e, file, "read");
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new HostError("bad_request", `${file} is not a regular file`);
    if (st.size > MAX_LAYOUT_BYTES)
      throw new HostError(
        "invalid_layout",
        `${file} is ${megabytes(st.size)}; a layout file is at most ${megabytes(MAX_LAYOUT_BYTES)}`,
      );
    const buf = Buffer.allocUnsafe(MAX_LAYOUT_BYTES + 1);
    let len = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, len, buf.length - len, len);
      if (bytesRead === 0) break;
      len += bytesRead;
      if (len > MAX_LAYOUT_BYTES)
        throw new HostError("invalid_layout", `${file} grew beyond ${megabytes(MAX_LAYOUT_BYTES)} while being read`);
    }
    try {
      return utf8.decode(buf.subarray(0, len));
    } catch {
      throw new HostError("invalid_layout", `${file} is not UTF-8 text`);
    }
  } catch (e) {
    if (e instanceof HostError) throw e;
    throw fsError(e, file, "read");
  } finally {
    await fh.close();
  }
}

/** Validates layout text from any source; `label` names it in messages (file name or path). */
export function parseLayoutText(text: string, label: string): Layout {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.length > MAX_LAYOUT_BYTES)
    throw new HostError("invalid_layout", `${label} is larger than ${megabytes(MAX_LAYOUT_BYTES)}`);
  let json: unknown;
  try {
    json = parseJsonSafely(body);
  } catch (e) {
    if (e instanceof UnsafeJsonError)
      throw new HostError("invalid_layout", `${label} is not a usable layout file: ${e.message}`, [
        { path: "", message: e.message },
      ]);
    throw e;
  }
  try {
    return parseLayout(json);
  } catch (e) {
    if (e instanceof LayoutError)
      throw new HostError("invalid_layout", `${label} is not a valid SatPayload layout: ${e.message}`, e.issues);
    throw e;
  }
}

export async function readLayoutFile(file: string): Promise<Layout> {
  checkPath(file);
  return parseLayoutText(await readBounded(file), file);
}

/** The text a user commits: stable two-space JSON with a final newline. */
export function layoutToText(layout: unknown): string {
  return `${JSON.stringify(layout, null, 2)}\n`;
}

export function layoutFileName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/[\s_]+/g, "-")
    .replace(/-+/g, "-")
    .toLowerCase()
    .slice(0, 80);
  return `${slug || "layout"}${LAYOUT_EXTENSION}`;
}

/** Overwriting is allowed only for what is recognisably one of our layout files. */
async function checkReplaceable(file: string): Promise<{ target: string; mode: number }> {
  let st;
  try {
    st = await lstat(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { target: file, mode: 0o644 };
    throw fsError(e, file, "inspect");
  }
  // a link is followed so the real file is replaced and the link keeps pointing at it
  const target = st.isSymbolicLink()
    ? await realpath(file).catch((e) => Promise.reject(fsError(e, file, "resolve")))
    : file;
  const text = await readBounded(target).catch((e) => {
    throw e instanceof HostError && e.code !== "not_found"
      ? new HostError("conflict", `refusing to overwrite ${file}: ${e.message}`)
      : e;
  });
  let json: unknown;
  try {
    json = parseJsonSafely(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw new HostError(
      "conflict",
      `refusing to overwrite ${file}: it is not a SatPayload layout file (${(e as Error).message})`,
    );
  }
  if (typeof json !== "object" || json === null || (json as { format?: unknown }).format !== "satlayout")
    throw new HostError(
      "conflict",
      `refusing to overwrite ${file}: it is not a SatPayload layout file (no "format": "satlayout")`,
    );
  return { target, mode: (await lstat(target)).mode & 0o777 };
}

/**
 * Writes a sibling temp file, fsyncs it and renames it over the target: readers and crashes see
 * either the old file or the new one, never a torn write.
 */
export async function writeLayoutFile(file: string, text: string): Promise<string> {
  checkPath(file);
  const { target, mode } = await checkReplaceable(file);
  try {
    await writeFileAtomicAsync(target, text, mode);
  } catch (e) {
    throw fsError(e, file, "write");
  }
  return file;
}
