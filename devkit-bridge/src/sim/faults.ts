// What can go wrong between the module and the host, drawn from a seeded generator so a failing run can be
// replayed exactly.
import { Prng } from "#codecs";

export interface FaultSettings {
  seed: number;
  /** probability per answer of flipping one hex digit (the CRC no longer matches) */
  corruptAnswer: number;
  /** probability per request of a hex digit flipped on the way in (the module answers CRC_NOT_VALID) */
  corruptRequest: number;
  /** probability per answer of never sending it */
  drop: number;
  /** probability per answer of sending it late; later requests wait behind it, as on the module's one UART */
  delay: number;
  delayMs: [number, number];
  /** probability per answer of noise bytes on the line before it */
  noise: number;
  /** probability per answer of cutting it off before its ETX */
  truncate: number;
  /** probability per request of the device vanishing (USB unplugged) instead of answering */
  disconnect: number;
  /**
   * the start-up quirk of the facts sheet: the first request after a power-up or reset gets no answer
   * (why libraries send a dummy opcode 0x00 first). Off by default; clients must survive it either way.
   */
  firstRequestLost: boolean;
}

export const NO_FAULTS: FaultSettings = {
  seed: 1,
  corruptAnswer: 0,
  corruptRequest: 0,
  drop: 0,
  delay: 0,
  delayMs: [0, 0],
  noise: 0,
  truncate: 0,
  disconnect: 0,
  firstRequestLost: false,
};

export type AnswerFault = "none" | "drop" | "corrupt" | "truncate" | "disconnect";

export interface Plan {
  fault: AnswerFault;
  delayMs: number;
  noise: Uint8Array | null;
  corruptRequest: boolean;
}

const HEX = "0123456789ABCDEF";

export class FaultPlanner {
  private rng: Prng;
  constructor(private settings: FaultSettings = NO_FAULTS) {
    this.rng = new Prng(settings.seed);
  }

  set(settings: Partial<FaultSettings>): void {
    const next = { ...this.settings, ...settings };
    if (settings.seed !== undefined) this.rng = new Prng(settings.seed);
    this.settings = next;
  }

  get current(): FaultSettings {
    return this.settings;
  }

  private hit(p: number): boolean {
    return p > 0 && this.rng.next() < p;
  }

  plan(): Plan {
    const s = this.settings;
    const fault: AnswerFault = this.hit(s.disconnect)
      ? "disconnect"
      : this.hit(s.drop)
        ? "drop"
        : this.hit(s.corruptAnswer)
          ? "corrupt"
          : this.hit(s.truncate)
            ? "truncate"
            : "none";
    return {
      fault,
      delayMs: this.hit(s.delay) ? this.rng.int(s.delayMs[0], s.delayMs[1]) : 0,
      noise: this.hit(s.noise) ? this.noiseBytes() : null,
      corruptRequest: this.hit(s.corruptRequest),
    };
  }

  /** Line noise: mostly junk, sometimes a stray STX or ETX so resynchronisation gets exercised too. */
  private noiseBytes(): Uint8Array {
    const n = this.rng.int(1, 12);
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const r = this.rng.next();
      out[i] = r < 0.1 ? 0x02 : r < 0.2 ? 0x03 : r < 0.6 ? HEX.charCodeAt(this.rng.int(0, 15)) : this.rng.int(0, 255);
    }
    return out;
  }

  /** Another hex digit at one position: a single-digit error every CRC-16 catches. */
  flipDigit(text: string): string {
    if (!text.length) return text;
    const i = this.rng.int(0, text.length - 1);
    const old = text[i]!.toUpperCase();
    let c = old;
    while (c === old) c = HEX[this.rng.int(0, 15)]!;
    return text.slice(0, i) + c + text.slice(i + 1);
  }

  cut(wire: Uint8Array): Uint8Array {
    return wire.subarray(0, this.rng.int(1, Math.max(1, wire.length - 2)));
  }
}
