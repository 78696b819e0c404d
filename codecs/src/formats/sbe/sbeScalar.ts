// One fixed-size SBE value at a byte position: write, read, write its null, and test for null.
import type { SbeScalar } from "./sbePlan.ts";
import type { ScalarValue } from "../../layout/values.ts";
import { readUtf8, writeUtf8 } from "../../text/utf8.ts";
import { SlotError } from "../fixed/numeric.ts";

export interface ScalarOps {
  readonly size: number;
  /** throws SlotError; buf must have `size` bytes (plus 2 × size of scratch for char arrays) at pos */
  write(buf: Uint8Array, dv: DataView, pos: number, v: unknown): void;
  /** throws SlotError */
  read(buf: Uint8Array, dv: DataView, pos: number): ScalarValue;
  writeNull(buf: Uint8Array, dv: DataView, pos: number): void;
  isNull(buf: Uint8Array, dv: DataView, pos: number): boolean;
}

export function scalarOps(s: SbeScalar): ScalarOps {
  const size = s.size;
  switch (s.kind) {
    case "num": {
      const { slot, nullRaw, writeRaw, readRaw } = s;
      const isNaNNull = typeof nullRaw === "number" && Number.isNaN(nullRaw);
      return {
        size,
        write: (_b, dv, p, v) => slot.write(dv, p, v),
        read: (_b, dv, p) => slot.read(dv, p),
        writeNull: (_b, dv, p) => writeRaw(dv, p, nullRaw),
        isNull: isNaNNull ? (_b, dv, p) => Number.isNaN(readRaw(dv, p)) : (_b, dv, p) => readRaw(dv, p) === nullRaw,
      };
    }
    case "chars": {
      if (s.of === "time") {
        const time = s.time!;
        return {
          size,
          write: (b, _dv, p, v) => {
            if (typeof v !== "number" || !Number.isFinite(v)) throw new SlotError("must be epoch seconds");
            if (!time.write(b, p, v)) throw new SlotError(`${v} is outside the years 0–9999 a text timestamp can show`);
          },
          read: (b, _dv, p) => {
            const v = time.read(b, p);
            if (v === undefined) throw new SlotError("not a valid timestamp text");
            return v;
          },
          writeNull: (b, _dv, p) => b.fill(0, p, p + size),
          isNull: (b, _dv, p) => b[p] === 0,
        };
      }
      return {
        size,
        write: (b, _dv, p, v) => {
          if (typeof v !== "string") throw new SlotError("must be a string");
          if (v.length > size) throw new SlotError(`is longer than maxLength ${size} bytes`);
          // SBE decoders end a char array at the first NUL
          if (v.indexOf("\0") >= 0) throw new SlotError("a NUL-padded char array cannot hold U+0000");
          const len = writeUtf8(b, p, v);
          if (len < 0) throw new SlotError("holds a lone surrogate (not encodable as UTF-8)");
          if (len > size) throw new SlotError(`is ${len} UTF-8 bytes, more than maxLength ${size}`);
          b.fill(0, p + len, p + size);
        },
        read: (b, _dv, p) => {
          const stop = p + size;
          let nul = p;
          while (nul < stop && b[nul] !== 0) nul++;
          for (let k = nul; k < stop; k++)
            if (b[k] !== 0) throw new SlotError("non-NUL byte after the terminating NUL");
          const s = readUtf8(b, p, nul - p);
          if (s === undefined) throw new SlotError("invalid UTF-8");
          return s;
        },
        writeNull: (b, _dv, p) => b.fill(0, p, p + size),
        // a zero-length array has no byte to tell a value from null: every value reads back as absent
        isNull: (b, _dv, p) => size === 0 || b[p] === 0,
      };
    }
    case "bytes":
      return {
        size,
        write: (b, _dv, p, v) => {
          if (!(v instanceof Uint8Array)) throw new SlotError("must be bytes");
          if (v.length !== size)
            throw new SlotError(`needs exactly ${size} bytes in a fixed-size uint8 array, got ${v.length}`);
          b.set(v, p);
        },
        read: (b, _dv, p) => b.slice(p, p + size),
        writeNull: (b, _dv, p) => b.fill(0xff, p, p + size),
        isNull: (b, _dv, p) => {
          for (let k = p; k < p + size; k++) if (b[k] !== 0xff) return false;
          return true;
        },
      };
  }
}
