// Hex as people paste it from portals and serial logs.
import { InputError } from "./errors.ts";

/** Whitespace, colons and a 0x prefix are ignored; anything else that is not a hex digit is an error. */
export function hexToBytes(text: string): Uint8Array {
  const clean = text.replace(/^\s*0x/i, "").replace(/[\s:]/g, "");
  if (!/^[0-9a-fA-F]*$/.test(clean)) throw new InputError("stdin is not hex (expected 0-9, a-f)");
  if (clean.length % 2 !== 0) throw new InputError(`stdin has an odd number of hex digits (${clean.length})`);
  return Uint8Array.from(Buffer.from(clean, "hex"));
}
