// Strict well-formedness pass run before @msgpack/msgpack decodes: the library turns invalid UTF-8
// into other text, lets a repeated key overwrite the first, accepts numeric keys and extension
// types, and reports no offsets. A record is one map with str keys holding nil, bools, ints,
// floats, str, bin, arrays and maps; anything else is refused here, with its offset.
// MsgPack-int's maps have unsigned integer keys instead (the fields' numbers), checked the same way.
import { DecodeError } from "../../errors.ts";
import { invalidUtf8At, utf8Text } from "../../text/utf8.ts";
import type { DescribeKey } from "../selfdescribing/intKeys.ts";

const MAX_DEPTH = 64;

/** positive fixint, uint 8/16/32/64: the byte count after the type byte */
const UINT_KEY: Readonly<Record<number, number>> = { 0xcc: 1, 0xcd: 2, 0xce: 4, 0xcf: 8 };

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

  private uint(size: number, at: number): number {
    const b = this.b;
    if (this.i + size > b.length) this.fail("truncated length", at);
    let v = 0;
    for (let k = 0; k < size; k++) v = v * 256 + b[this.i + k]!;
    this.i += size;
    return v;
  }

  private skip(size: number, at: number, what: string): void {
    if (size > this.b.length - this.i) this.fail(`${what} runs past the end`, at);
    this.i += size;
  }

  item(depth: number): void {
    const b = this.b;
    const at = this.i;
    if (at >= b.length) this.fail("unexpected end of input", at);
    const t = b[this.i++]!;
    if (t <= 0x7f || t >= 0xe0 || t === 0xc0 || t === 0xc2 || t === 0xc3) return;
    if (t >= 0xa0 && t <= 0xbf) return this.text(t & 0x1f, at);
    if (t >= 0x90 && t <= 0x9f) return this.array(t & 0x0f, at, depth);
    if (t >= 0x80 && t <= 0x8f) return this.map(t & 0x0f, at, depth);
    switch (t) {
      case 0xc4:
        return this.skip(this.uint(1, at), at, "binary");
      case 0xc5:
        return this.skip(this.uint(2, at), at, "binary");
      case 0xc6:
        return this.skip(this.uint(4, at), at, "binary");
      case 0xca:
        return this.skip(4, at, "float");
      case 0xcb:
        return this.skip(8, at, "float");
      case 0xcc:
      case 0xd0:
        return this.skip(1, at, "integer");
      case 0xcd:
      case 0xd1:
        return this.skip(2, at, "integer");
      case 0xce:
      case 0xd2:
        return this.skip(4, at, "integer");
      case 0xcf:
      case 0xd3:
        return this.skip(8, at, "integer");
      case 0xd9:
        return this.text(this.uint(1, at), at);
      case 0xda:
        return this.text(this.uint(2, at), at);
      case 0xdb:
        return this.text(this.uint(4, at), at);
      case 0xdc:
        return this.array(this.uint(2, at), at, depth);
      case 0xdd:
        return this.array(this.uint(4, at), at, depth);
      case 0xde:
        return this.map(this.uint(2, at), at, depth);
      case 0xdf:
        return this.map(this.uint(4, at), at, depth);
      case 0xc1:
        return this.fail("0xc1 is never used", at);
      default:
        return this.fail("extension types are not accepted", at);
    }
  }

  private text(len: number, at: number): void {
    if (len > this.b.length - this.i) this.fail("string runs past the end", at);
    const bad = invalidUtf8At(this.b, this.i, this.i + len);
    if (bad >= 0) this.fail("invalid UTF-8", bad);
    this.i += len;
  }

  private array(count: number, at: number, depth: number): void {
    if (depth >= MAX_DEPTH) this.fail("nesting too deep", at);
    if (count > this.b.length - this.i) this.fail("array count exceeds the remaining bytes", at);
    for (let k = 0; k < count; k++) this.item(depth + 1);
  }

  private map(count: number, at: number, depth: number): void {
    if (depth >= MAX_DEPTH) this.fail("nesting too deep", at);
    if (count * 2 > this.b.length - this.i) this.fail("map count exceeds the remaining bytes", at);
    if (this.intKeys) return this.intKeyedMap(count, depth);
    const seen = count > 1 ? new Set<string>() : null;
    for (let k = 0; k < count; k++) {
      const keyAt = this.i;
      const t = this.b[keyAt]!;
      const isText = (t >= 0xa0 && t <= 0xbf) || t === 0xd9 || t === 0xda || t === 0xdb;
      if (!isText) this.fail("map key is not a string", keyAt);
      this.item(depth + 1);
      if (seen) {
        const headLen = t <= 0xbf ? 1 : t === 0xd9 ? 2 : t === 0xda ? 3 : 5;
        const key = utf8Text(this.b, keyAt + headLen, this.i);
        if (seen.has(key)) this.fail(`duplicate key "${key}"`, keyAt);
        seen.add(key);
      }
      this.item(depth + 1);
    }
  }

  /** A map whose keys are field numbers: unsigned integers, each once. */
  private intKeyedMap(count: number, depth: number): void {
    const describe = this.intKeys!;
    const seen = new Set<number>();
    for (let k = 0; k < count; k++) {
      const keyAt = this.i;
      if (keyAt >= this.b.length) this.fail("unexpected end of input", keyAt);
      const t = this.b[keyAt]!;
      const isText = (t >= 0xa0 && t <= 0xbf) || t === 0xd9 || t === 0xda || t === 0xdb;
      if (isText) {
        this.item(depth + 1);
        const headLen = t <= 0xbf ? 1 : t === 0xd9 ? 2 : t === 0xda ? 3 : 5;
        const key = utf8Text(this.b, keyAt + headLen, this.i);
        this.fail(`map key is ${describe(this.keyPath, key)}; keys are field numbers`, keyAt);
      }
      let n: number;
      if (t <= 0x7f) {
        this.i++;
        n = t;
      } else if (UINT_KEY[t] !== undefined) {
        this.i++;
        n = this.uint(UINT_KEY[t], keyAt);
      } else this.fail("map key is not an unsigned integer (a field number)", keyAt);
      if (seen.has(n)) this.fail(`duplicate key ${describe(this.keyPath, n)}`, keyAt);
      seen.add(n);
      this.keyPath.push(n);
      this.item(depth + 1);
      this.keyPath.pop();
    }
  }
}

/** Throws DecodeError unless `bytes` is exactly one well-formed MessagePack object of the accepted subset. */
export function checkMsgpack(bytes: Uint8Array, format = "msgpack", intKeys?: DescribeKey): void {
  const c = new Checker(bytes, format, intKeys);
  c.item(0);
  if (c.i !== bytes.length) throw new DecodeError("trailing bytes after the object", format, c.i);
}
