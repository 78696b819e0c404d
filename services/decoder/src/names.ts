// Resource names of forwarded contentInstances: at most 45 characters (Mobius' lookup.rn), sorting
// by arrival (a real Mobius picks `la`/`ol` as the alphabetically largest/smallest name of the
// newest time window) and stored with the record so a resend is idempotent. Every record is named
// by a ULID (48-bit ms time + 80 bits, Crockford base32, ASCII-sortable) from a monotonic
// generator; a device's own message id travels in a `msgid:` label. Format: docs/stack.md.
import { createHash, randomFillSync } from "node:crypto";

/** Crockford's base32: digits then letters without I L O U, in ascending ASCII order */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;
export const ULID_LENGTH = TIME_CHARS + RANDOM_CHARS;
const RANDOM_MAX = (1n << 80n) - 1n;
const TIME_MAX = 2 ** 48 - 1;

/** between the ULID and the device's own id in the names decoders before issue 22 made */
const LEGACY_SEPARATOR = "-";

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
 * The longest resource name every CSE stores: Mobius keeps `rn` in `lookup.rn varchar(45)`
 * (mobiusdb.sql) and answers a longer one 500/5000 "[create_action] create resource error" — for
 * ever, since a resend carries the same name.
 */
export const MAX_RESOURCE_NAME = 45;

/** the label that carries a device's own message id on its contentInstance: `msgid:<id>` */
export const MESSAGE_ID_LABEL = "msgid:";

/** a record as far as its resource name goes (the buffer's row) */
export interface NamedRecord {
  seq: number;
  messageId: string;
  /** the stored name; null: the message id is the name */
  rn: string | null;
  receivedAt: number;
}

/** the labels of a record's contentInstance: its message id when the name does not say it */
export function instanceLabels(messageId: string, rn: string): string[] | undefined {
  return messageId === rn ? undefined : [`${MESSAGE_ID_LABEL}${messageId}`];
}

const LEGACY_NAME = new RegExp(`^[${ALPHABET}]{${ULID_LENGTH}}${LEGACY_SEPARATOR}`);
const ULID_PREFIX = new RegExp(`^[${ALPHABET}]{${ULID_LENGTH}}`);

/**
 * The message id an instance carries: its `msgid:` label, else (names of decoders before the
 * labels: `<ULID>-<device's id>`) the part behind the ULID, else the name itself.
 */
export function messageIdOf(rn: string, lbl?: readonly unknown[]): string {
  for (const l of lbl ?? [])
    if (typeof l === "string" && l.startsWith(MESSAGE_ID_LABEL)) return l.slice(MESSAGE_ID_LABEL.length);
  return LEGACY_NAME.test(rn) ? rn.slice(ULID_LENGTH + LEGACY_SEPARATOR.length) : rn;
}

/**
 * A ULID made from what the buffer knows of a record, the same every time: its arrival
 * millisecond, then its seq (order within the millisecond) and 40 bits of a hash of its message id
 * (records of other buffers with the same seq). For names stored by old decoders that hold no ULID.
 */
function derivedUlid(r: NamedRecord): string {
  const hash = BigInt(`0x${createHash("sha256").update(r.messageId).digest("hex").slice(0, 10)}`);
  const random = ((BigInt(r.seq) & ((1n << 40n) - 1n)) << 40n) | hash;
  return (
    base32(BigInt(Math.min(Math.max(0, Math.floor(r.receivedAt)), TIME_MAX)), TIME_CHARS) + base32(random, RANDOM_CHARS)
  );
}

/**
 * The name a record is forwarded under. Decoders before issue 22 stored `<ULID>-<device's id>`
 * (up to 155 characters) or the device's id itself; a stored name that does not fit
 * MAX_RESOURCE_NAME becomes its ULID (or one derived from the record), the same on every resend.
 */
export function fittingName(r: NamedRecord): string {
  const stored = r.rn ?? r.messageId;
  if (stored.length <= MAX_RESOURCE_NAME) return stored;
  return ULID_PREFIX.test(stored) ? stored.slice(0, ULID_LENGTH) : derivedUlid(r);
}

/** name repairs a record may go through before the CSE's refusal is taken as final */
export const MAX_REPAIRS = 9;
const REPAIRED = /^(.*)\.r([1-9])$/;

/**
 * The next name for a record whose name the CSE holds without our instance (a crashed Mobius left
 * the name row, or another content sits there): `<name>.r1`, then `.r2` … `.r9`. Against other
 * records the ULID in front decides the order, and a name that extends another sorts right after
 * it, so `la` stays right. Undefined
 * after MAX_REPAIRS.
 */
export function repairName(name: string, r: NamedRecord): string | undefined {
  const m = REPAIRED.exec(name);
  if (m) return Number(m[2]) < MAX_REPAIRS ? `${m[1]}.r${Number(m[2]) + 1}` : undefined;
  const base =
    name.length + 3 <= MAX_RESOURCE_NAME ? name : ULID_PREFIX.test(name) ? name.slice(0, ULID_LENGTH) : derivedUlid(r);
  return `${base}.r1`;
}
