// Fixed-width primitives as Python's struct names them; struct and SBE both speak in these codes.

export type PrimCode = "b" | "B" | "h" | "H" | "i" | "I" | "q" | "Q" | "f" | "d";
export type Raw = number | bigint;

export const PRIM_SIZE: Readonly<Record<PrimCode, number>> = {
  b: 1,
  B: 1,
  h: 2,
  H: 2,
  i: 4,
  I: 4,
  q: 8,
  Q: 8,
  f: 4,
  d: 8,
};

export type PrimWrite = (dv: DataView, pos: number, raw: Raw) => void;
export type PrimRead = (dv: DataView, pos: number) => Raw;

// One closure per (code, byte order) so the hot path never branches on either.
export function primWriter(code: PrimCode, little: boolean): PrimWrite {
  switch (code) {
    case "b":
      return (dv, p, v) => dv.setInt8(p, v as number);
    case "B":
      return (dv, p, v) => dv.setUint8(p, v as number);
    case "h":
      return (dv, p, v) => dv.setInt16(p, v as number, little);
    case "H":
      return (dv, p, v) => dv.setUint16(p, v as number, little);
    case "i":
      return (dv, p, v) => dv.setInt32(p, v as number, little);
    case "I":
      return (dv, p, v) => dv.setUint32(p, v as number, little);
    case "q":
      return (dv, p, v) => dv.setBigInt64(p, v as bigint, little);
    case "Q":
      return (dv, p, v) => dv.setBigUint64(p, v as bigint, little);
    case "f":
      return (dv, p, v) => dv.setFloat32(p, v as number, little);
    case "d":
      return (dv, p, v) => dv.setFloat64(p, v as number, little);
  }
}

export function primReader(code: PrimCode, little: boolean): PrimRead {
  switch (code) {
    case "b":
      return (dv, p) => dv.getInt8(p);
    case "B":
      return (dv, p) => dv.getUint8(p);
    case "h":
      return (dv, p) => dv.getInt16(p, little);
    case "H":
      return (dv, p) => dv.getUint16(p, little);
    case "i":
      return (dv, p) => dv.getInt32(p, little);
    case "I":
      return (dv, p) => dv.getUint32(p, little);
    case "q":
      return (dv, p) => dv.getBigInt64(p, little);
    case "Q":
      return (dv, p) => dv.getBigUint64(p, little);
    case "f":
      return (dv, p) => dv.getFloat32(p, little);
    case "d":
      return (dv, p) => dv.getFloat64(p, little);
  }
}

/** Inclusive integer range of an integer code (floats have none). */
export function primIntRange(code: PrimCode): [bigint, bigint] | undefined {
  switch (code) {
    case "b":
      return [-128n, 127n];
    case "B":
      return [0n, 255n];
    case "h":
      return [-32768n, 32767n];
    case "H":
      return [0n, 65535n];
    case "i":
      return [-(1n << 31n), (1n << 31n) - 1n];
    case "I":
      return [0n, (1n << 32n) - 1n];
    case "q":
      return [-(1n << 63n), (1n << 63n) - 1n];
    case "Q":
      return [0n, (1n << 64n) - 1n];
    default:
      return undefined;
  }
}

/** SBE 1.0 default null value of a primitive: max for unsigned, min for signed, NaN for floats. */
export function sbeNull(code: PrimCode): Raw {
  switch (code) {
    case "f":
    case "d":
      return Number.NaN;
    case "q":
      return -(1n << 63n);
    case "Q":
      return (1n << 64n) - 1n;
    default: {
      const [lo, hi] = primIntRange(code)!;
      return Number(code === code.toUpperCase() ? hi : lo);
    }
  }
}

/**
 * Smallest integer code holding [lo, hi]; with `avoidNull` the code's SBE null value must fall
 * outside the range too, so an optional field never has a legal value that reads back as absent.
 */
export function smallestIntCode(lo: number, hi: number, avoidNull = false): PrimCode | undefined {
  const order: PrimCode[] = lo >= 0 ? ["B", "H", "I", "Q"] : ["b", "h", "i", "q"];
  for (const c of order) {
    const [min, max] = primIntRange(c)!;
    const nmin = avoidNull && lo < 0 ? min + 1n : min;
    const nmax = avoidNull && lo >= 0 ? max - 1n : max;
    if (BigInt(Math.ceil(lo)) >= nmin && BigInt(Math.floor(hi)) <= nmax) return c;
  }
  return undefined;
}
