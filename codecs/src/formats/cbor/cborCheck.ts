// Strict well-formedness pass run before cbor-x decodes: cbor-x accepts invalid UTF-8, lets a
// repeated key overwrite the first, stringifies non-text keys, turns tags into objects and reports
// no offsets. A record is one definite-length map with text keys holding ints, floats (any width),
// text, bytes, booleans, null, arrays and maps; anything else is refused here, with its offset.
// CBOR-int's maps have unsigned integer keys instead (the fields' numbers), checked the same way.
import { DecodeError } from "../../errors.ts";
import { invalidUtf8At, utf8Text } from "../../text/utf8.ts";
import type { DescribeKey } from "../selfdescribing/intKeys.ts";

const MAX_DEPTH = 64;

class Checker {
  i = 0;
  /** the numbers of the maps enclosing the current one (integer keys), for naming a refused key */
  private readonly keyPath: number[] = [];
  constructor(
    readonly b: Uint8Array,
    private readonly format: string,
    /** set: keys are unsigned integers, named through it in errors */
    private readonly intKeys?: DescribeKey,
  ) {}

  private fail(message: string, offset: number): never {
    throw new DecodeError(message, this.format, offset);
  }

  /** The head's argument; lengths beyond what remains are refused before anything is allocated. */
  private argument(info: number, at: number): number {
    const b = this.b;
    const need = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
    if (this.i + need > b.length) this.fail("truncated item head", at);
    let v: number;
    switch (info) {
      case 24:
        v = b[this.i]!;
        break;
      case 25:
        v = (b[this.i]! << 8) | b[this.i + 1]!;
        break;
      case 26:
        v = ((b[this.i]! << 24) >>> 0) + (b[this.i + 1]! << 16) + (b[this.i + 2]! << 8) + b[this.i + 3]!;
        break;
      case 27: {
        const hi = ((b[this.i]! << 24) >>> 0) + (b[this.i + 1]! << 16) + (b[this.i + 2]! << 8) + b[this.i + 3]!;
        // only compared against lengths that fit in memory, so "huge" is all a large value needs to be
        v =
          hi > 0
            ? Number.MAX_SAFE_INTEGER
            : ((b[this.i + 4]! << 24) >>> 0) + (b[this.i + 5]! << 16) + (b[this.i + 6]! << 8) + b[this.i + 7]!;
        break;
      }
      default:
        v = info;
    }
    this.i += need;
    return v;
  }

  item(depth: number): void {
    const b = this.b;
    const at = this.i;
    if (at >= b.length) this.fail("unexpected end of input", at);
    const initial = b[this.i++]!;
    const major = initial >> 5;
    const info = initial & 31;
    if (info >= 28 && info <= 30) this.fail("reserved additional information", at);
    if (info === 31) this.fail(major === 7 ? "unexpected break" : "indefinite-length items are not accepted", at);
    if (major === 7) {
      if (info === 20 || info === 21 || info === 22) return;
      if (info === 25 || info === 26 || info === 27) {
        const size = info === 25 ? 2 : info === 26 ? 4 : 8;
        if (this.i + size > b.length) this.fail("truncated float", at);
        this.i += size;
        return;
      }
      this.fail(info === 23 ? "undefined is not a record value" : "simple values are not accepted", at);
    }
    const arg = this.argument(info, at);
    const left = b.length - this.i;
    switch (major) {
      case 0:
      case 1:
        return;
      case 2:
        if (arg > left) this.fail("byte string runs past the end", at);
        this.i += arg;
        return;
      case 3: {
        if (arg > left) this.fail("text string runs past the end", at);
        const bad = invalidUtf8At(b, this.i, this.i + arg);
        if (bad >= 0) this.fail("invalid UTF-8", bad);
        this.i += arg;
        return;
      }
      case 4:
        if (depth >= MAX_DEPTH) this.fail("nesting too deep", at);
        if (arg > left) this.fail("array count exceeds the remaining bytes", at);
        for (let k = 0; k < arg; k++) this.item(depth + 1);
        return;
      case 5: {
        if (depth >= MAX_DEPTH) this.fail("nesting too deep", at);
        if (arg * 2 > left) this.fail("map count exceeds the remaining bytes", at);
        if (this.intKeys) return this.intKeyedMap(arg, depth);
        const seen = arg > 1 ? new Set<string>() : null;
        for (let k = 0; k < arg; k++) {
          const keyAt = this.i;
          if (keyAt >= b.length) this.fail("unexpected end of input", keyAt);
          if (b[keyAt]! >> 5 !== 3) this.fail("map key is not a text string", keyAt);
          this.item(depth + 1);
          if (seen) {
            const key = this.keyText(keyAt);
            if (seen.has(key)) this.fail(`duplicate key "${key}"`, keyAt);
            seen.add(key);
          }
          this.item(depth + 1);
        }
        return;
      }
      default:
        this.fail("tags are not accepted", at);
    }
  }

  /** A map whose keys are field numbers: unsigned integers, each once. */
  private intKeyedMap(count: number, depth: number): void {
    const describe = this.intKeys!;
    const seen = new Set<number>();
    for (let k = 0; k < count; k++) {
      const keyAt = this.i;
      if (keyAt >= this.b.length) this.fail("unexpected end of input", keyAt);
      const major = this.b[keyAt]! >> 5;
      if (major === 3) {
        this.item(depth + 1);
        this.fail(`map key is ${describe(this.keyPath, this.keyText(keyAt))}; keys are field numbers`, keyAt);
      }
      if (major !== 0) this.fail("map key is not an unsigned integer (a field number)", keyAt);
      this.i++;
      const n = this.argument(this.b[keyAt]! & 31, keyAt);
      if (seen.has(n)) this.fail(`duplicate key ${describe(this.keyPath, n)}`, keyAt);
      seen.add(n);
      this.keyPath.push(n);
      this.item(depth + 1);
      this.keyPath.pop();
    }
  }

  /** Re-reads a text key that item() has already validated. */
  private keyText(at: number): string {
    const save = this.i;
    this.i = at + 1;
    const len = this.argument(this.b[at]! & 31, at);
    const text = utf8Text(this.b, this.i, this.i + len);
    this.i = save;
    return text;
  }
}

/** Throws DecodeError unless `bytes` is exactly one well-formed CBOR item of the accepted subset. */
export function checkCbor(bytes: Uint8Array, format = "cbor", intKeys?: DescribeKey): void {
  const c = new Checker(bytes, format, intKeys);
  c.item(0);
  if (c.i !== bytes.length) throw new DecodeError("trailing bytes after the item", format, c.i);
}
