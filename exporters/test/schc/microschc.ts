// Running the exported schc_apply.py (microschc, PyPI) over packets, and the packets both SCHC export tests
// use: the proof that the rule set, the studio's compressor and the exported C agree with a library.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { referencePython } from "#codecs-test/helpers/python.ts";
import type { ExportFile } from "../../src/types.ts";

export const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

export interface Applied {
  schc: string;
  bits: number;
  restored: string;
}

/** Writes the export to a temp folder and runs its schc_apply.py over the packets. */
export function applyWithMicroschc(files: ExportFile[], packets: Uint8Array[]): Applied[] {
  const dir = mkdtempSync(path.join(tmpdir(), "schc-"));
  try {
    for (const f of files) writeFileSync(path.join(dir, path.basename(f.path)), f.content);
    const rules = files.find((f) => f.path.endsWith(".schc.json"))!;
    const out = execFileSync(
      referencePython(),
      [path.join(dir, "schc_apply.py"), path.join(dir, path.basename(rules.path))],
      { input: JSON.stringify(packets.map(hex)) },
    );
    return JSON.parse(out.toString("utf8")) as Applied[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Payloads of several sizes and message counters, as a device would send them in turn. */
export const SCHC_CASES = [1, 13, 40, 127, 418].map((n, i) => ({
  counter: i * 5 + 3,
  payload: Uint8Array.from({ length: n }, (_, k) => (k * 37 + n) & 0xff),
}));
