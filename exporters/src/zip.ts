// A ZIP archive of export files (stored, not deflated: the files are small text and every unzip
// reads the store method). Isomorphic, so the browser can build the download itself too.
import type { ExportFile } from "./types.ts";

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Paths inside the archive: relative, "/"-separated, no "..", no drive letters or backslashes. */
export function safeArchivePath(path: string): boolean {
  return (
    path.length > 0 &&
    path.length < 1024 &&
    !path.startsWith("/") &&
    !path.includes("\\") &&
    !path.includes("\0") &&
    !/^[A-Za-z]:/.test(path) &&
    path.split("/").every((p) => p !== "" && p !== "." && p !== "..")
  );
}

// 1980-01-01 00:00, the earliest DOS date: the same files always give the same archive bytes
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

export function zipFiles(files: readonly Pick<ExportFile, "path" | "content">[], prefix = ""): Uint8Array {
  const enc = new TextEncoder();
  const entries = files.map((f) => {
    const path = `${prefix}${f.path}`;
    if (!safeArchivePath(path)) throw new Error(`unsafe path in archive: ${JSON.stringify(path)}`);
    const name = enc.encode(path);
    const data = enc.encode(f.content);
    return { name, data, crc: crc32(data) };
  });
  const localSize = entries.reduce((n, e) => n + 30 + e.name.length + e.data.length, 0);
  const centralSize = entries.reduce((n, e) => n + 46 + e.name.length, 0);
  if (entries.length > 0xffff || localSize + centralSize > 0xffffffff)
    throw new Error("too many or too large files for a ZIP without ZIP64");
  const out = new Uint8Array(localSize + centralSize + 22);
  const dv = new DataView(out.buffer);
  let p = 0;
  const offsets: number[] = [];
  for (const e of entries) {
    offsets.push(p);
    dv.setUint32(p, 0x04034b50, true);
    dv.setUint16(p + 4, 20, true); // version needed: 2.0
    dv.setUint16(p + 6, 0x0800, true); // bit 11: names are UTF-8
    dv.setUint16(p + 8, 0, true); // stored
    dv.setUint16(p + 10, DOS_TIME, true);
    dv.setUint16(p + 12, DOS_DATE, true);
    dv.setUint32(p + 14, e.crc, true);
    dv.setUint32(p + 18, e.data.length, true);
    dv.setUint32(p + 22, e.data.length, true);
    dv.setUint16(p + 26, e.name.length, true);
    dv.setUint16(p + 28, 0, true);
    out.set(e.name, p + 30);
    out.set(e.data, p + 30 + e.name.length);
    p += 30 + e.name.length + e.data.length;
  }
  const central = p;
  entries.forEach((e, i) => {
    dv.setUint32(p, 0x02014b50, true);
    dv.setUint16(p + 4, (3 << 8) | 20, true); // made by: Unix, 2.0
    dv.setUint16(p + 6, 20, true);
    dv.setUint16(p + 8, 0x0800, true);
    dv.setUint16(p + 10, 0, true);
    dv.setUint16(p + 12, DOS_TIME, true);
    dv.setUint16(p + 14, DOS_DATE, true);
    dv.setUint32(p + 16, e.crc, true);
    dv.setUint32(p + 20, e.data.length, true);
    dv.setUint32(p + 24, e.data.length, true);
    dv.setUint16(p + 28, e.name.length, true);
    dv.setUint16(p + 30, 0, true);
    dv.setUint16(p + 32, 0, true);
    dv.setUint16(p + 34, 0, true);
    dv.setUint16(p + 36, 0, true);
    dv.setUint32(p + 38, (0o100644 << 16) >>> 0, true); // a regular file, rw-r--r--
    dv.setUint32(p + 42, offsets[i]!, true);
    out.set(e.name, p + 46);
    p += 46 + e.name.length;
  });
  dv.setUint32(p, 0x06054b50, true);
  dv.setUint16(p + 8, entries.length, true);
  dv.setUint16(p + 10, entries.length, true);
  dv.setUint32(p + 12, p - central, true);
  dv.setUint32(p + 16, central, true);
  return out;
}
