// MSB-first bit reader over untrusted bytes: every read is bounds-checked and fails as a DecodeError.
import { DecodeError } from "../../errors.ts";

const TWO_32 = 4294967296;

export class BitReader {
  private bytes: Uint8Array = new Uint8Array(0);
  /** next bit to read */
  pos = 0;
  private end = 0;

  constructor(private readonly format: string) {}

  reset(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.pos = 0;
    this.end = bytes.length * 8;
  }

  fail(message: string): never {
    throw new DecodeError(message, this.format, this.pos >>> 3);
  }

  /** Reads `n` bits (n ≤ 32) as an unsigned number. */
  read(n: number): number {
    if (n === 0) return 0;
    if (this.pos + n > this.end) this.fail(`truncated: ${n} more bits needed, ${this.end - this.pos} left`);
    let rem = n;
    let pos = this.pos;
    let out = 0;
    const bytes = this.bytes;
    while (rem > 0) {
      const off = pos & 7;
      const free = 8 - off;
      const take = rem < free ? rem : free;
      const chunk = (bytes[pos >>> 3]! >>> (free - take)) & ((1 << take) - 1);
      out = out * (1 << take) + chunk;
      pos += take;
      rem -= take;
    }
    this.pos = pos;
    return out;
  }

  /** Reads up to 53 bits as an unsigned number. */
  readWide(n: number): number {
    if (n <= 32) return this.read(n);
    const hi = this.read(n - 32);
    return hi * TWO_32 + this.read(32);
  }

  /** Reads up to 64 bits as an unsigned bigint. */
  readBig(n: number): bigint {
    if (n <= 32) return BigInt(this.read(n));
    const hi = this.read(n - 32);
    return (BigInt(hi) << 32n) | BigInt(this.read(32));
  }

  /** Strict end of message: no whole bytes left over and the padding bits are all zero. */
  finish(): void {
    const used = (this.pos + 7) >>> 3;
    if (this.bytes.length > used)
      throw new DecodeError(`${this.bytes.length - used} trailing bytes after the message`, this.format, used);
    const padBits = used * 8 - this.pos;
    if (padBits && (this.bytes[used - 1]! & ((1 << padBits) - 1)) !== 0)
      throw new DecodeError("non-zero padding bits", this.format, used - 1);
  }
}
