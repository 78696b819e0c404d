// Resource names of forwarded contentInstances that sort by arrival. A real Mobius picks `la`/`ol`
// as the alphabetically largest/smallest name of the newest time window, so names must sort the
// way records arrived: a ULID (48-bit ms time + 80 bits, Crockford base32, ASCII-sortable) from a
// monotonic generator, and a device-supplied id behind such a ULID. Format: docs/stack.md.
import { randomFillSync } from "node:crypto";

/** Crockford's base32: digits then letters without I L O U, in ascending ASCII order */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;
export const ULID_LENGTH = TIME_CHARS + RANDOM_CHARS;
const RANDOM_MAX = (1n << 80n) - 1n;
const TIME_MAX = 2 ** 48 - 1;

/** between a ULID and the device's own id in an `rn` */
export const DEVICE_ID_SEPARATOR = "-";

function base32(value: bigint, chars: number): string {
  let out = "";
  for (let i = 0; i < chars; i++) {
    out = ALPHABET[Number(value & 31n)]! + out;
    value >>= 5n;
  }
  return out;
}

/** random bytes drawn 10 at a time from a pool refilled in one call (a call per name cost a syscall each) */
const pool = Buffer.alloc(10 * 256);
let poolAt = pool.length;

function random80(): bigint {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += 10;
  return BigInt(`0x${pool.toString("hex", poolAt - 10, poolAt)}`);
}

/**
 * ULIDs in strictly increasing order within this process: a later millisecond starts from fresh
 * random bits; the same (or an earlier, clock stepped back) millisecond increments the last
 * value, as the ULID spec's monotonic mode does.
 */
export class UlidGenerator {
  private lastTime = -1;
  private lastRandom = 0n;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly random: () => bigint = random80,
  ) {}

  next(at: number = this.now()): string {
    let time = Math.floor(at);
    if (!Number.isFinite(time) || time < 0 || time > TIME_MAX)
      throw new RangeError(`ULID time ${at} is outside 0..2^48-1 ms`);
    let rand: bigint;
    if (time <= this.lastTime) {
      time = this.lastTime;
      rand = this.lastRandom + 1n;
      if (rand > RANDOM_MAX) {
        // 2^80 ids in one millisecond cannot happen from fresh random bits; borrow the next ms
        time += 1;
        rand = this.random() & (RANDOM_MAX >> 1n);
      }
    } else rand = this.random() & RANDOM_MAX;
    this.lastTime = time;
    this.lastRandom = rand;
    return base32(BigInt(time), TIME_CHARS) + base32(rand, RANDOM_CHARS);
  }
}

/** the time a ULID carries (ms since epoch) */
export function ulidTime(ulid: string): number {
  let t = 0;
  for (const c of ulid.slice(0, TIME_CHARS)) {
    const v = ALPHABET.indexOf(c);
    if (v < 0) throw new RangeError(`"${ulid}" is not a ULID`);
    t = t * 32 + v;
  }
  return t;
}

/** One generator per process: every worker's names increase in the order its records arrived. */
const processIds = new UlidGenerator();
export const nextUlid = (at?: number) => processIds.next(at);

/**
 * The cin name of a record: a generated message id is already a ULID; a device's own id is kept
 * (readers find it in the name) behind a ULID of its arrival, so names still sort by arrival.
 */
export function resourceNameFor(deviceMessageId: string | undefined, generated: string): string {
  return deviceMessageId === undefined ? generated : `${generated}${DEVICE_ID_SEPARATOR}${deviceMessageId}`;
}

const DEVICE_NAME = new RegExp(`^[${ALPHABET}]{${ULID_LENGTH}}${DEVICE_ID_SEPARATOR}`);

/** the message id a cin name carries: the device's id behind the ULID, or the generated ULID itself */
export function messageIdOf(rn: string): string {
  return DEVICE_NAME.test(rn) ? rn.slice(ULID_LENGTH + DEVICE_ID_SEPARATOR.length) : rn;
}
