// Resource ids in Mobius' shape: "<ty>-<UTC yyyyMMddHHmmssSSS><6 digits>". The 6-digit counter keeps
// ids unique when thousands of resources are created in one millisecond; its random start keeps a
// restarted CSE from reusing the ids of the run before within the same millisecond.
import { randomInt } from "node:crypto";

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

function stamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}${pad(d.getUTCMilliseconds(), 3)}`;
}

export class IdGenerator {
  private counter = randomInt(1_000_000);
  // resources come in bursts within one millisecond: format its stamp once
  private lastMs = NaN;
  private lastStamp = "";

  next(ty: number, ms: number): string {
    this.counter = (this.counter + 1) % 1_000_000;
    if (ms !== this.lastMs) {
      this.lastStamp = stamp(ms);
      this.lastMs = ms;
    }
    return `${ty}-${this.lastStamp}${pad(this.counter, 6)}`;
  }
}
