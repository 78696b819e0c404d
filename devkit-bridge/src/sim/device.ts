// The module as seen from its UART: frames in, frames out, one at a time, at the line's speed, with boot
// time and injected faults (the first-request quirk among them). Works over any Link (in memory, or the
// pseudo-terminal socat provides).
import type { Clock } from "../clock.ts";
import { FaultPlanner, type AnswerFault, type FaultSettings } from "./faults.ts";
import { AstronodeModel, type SimOptions } from "./model.ts";
import type { Link } from "../link/types.ts";
import { ERR } from "../protocol/codes.ts";
import {
  encodeFrame,
  ERROR_OPCODE,
  FrameDecoder,
  frameText,
  MAX_REQUEST_TEXT,
  parseFrameText,
  textToWire,
  type Received,
} from "../protocol/frame.ts";

export interface Exchange {
  /** index of the request frame since the device started (bad frames count too) */
  index: number;
  /** the request as it arrived */
  request: string;
  /** a digit of it was flipped on the way in (the module then answers CRC_NOT_VALID) */
  corrupted: boolean;
  /** what the module meant to answer, before faults; null when it said nothing */
  answer: string | null;
  /** quirk: the first request after a restart, unanswered (fault firstRequestLost); lost: still waiting when the device was unplugged */
  fault: AnswerFault | "quirk" | "lost";
  delayMs: number;
}

export interface DeviceOptions extends SimOptions {
  faults?: Partial<FaultSettings>;
  /**
   * UART speed (8N1: 10 bits a character) the device paces both directions at: a request is heard only
   * once all its characters would have arrived, an answer goes out no faster than the line carries it.
   * null: as fast as the link (the virtual-clock tests). Default null; the pty simulator defaults to 9600.
   */
  baud?: number | null;
  /** time the module takes per request before answering (CFG_SR writes flash: slower) */
  processingMs?: number;
  flashWriteMs?: number;
  /** called with every request and what became of its answer (the fault tests' ground truth) */
  onExchange?: (e: Exchange) => void;
}

const FLASH_OPCODES = new Set([0x10, 0x11]);
/** answers go out in slices this long, each when the line would have carried it */
const SLICE = 8;

interface Heard {
  r: Received;
  /** clock time its last character has crossed the line */
  at: number;
}

export class SimulatedDevice {
  readonly model: AstronodeModel;
  readonly faults: FaultPlanner;
  private readonly clock: Clock;
  private link: Link | null = null;
  private unsubscribe: (() => void)[] = [];
  private readonly decoder = new FrameDecoder(MAX_REQUEST_TEXT);
  private inbox: Heard[] = [];
  /** when the incoming line is done carrying what was written to it so far */
  private rxFreeAt = 0;
  /** the line speed, null when unpaced; may change while running */
  baud: number | null;
  private busy = false;
  private index = 0;
  private deafUntil = 0;
  private quirkArmed: boolean;
  private readonly processingMs: number;
  private readonly flashWriteMs: number;
  private readonly onExchange: (e: Exchange) => void;
  /** set by a "disconnect" fault; the owner decides how the device comes back */
  onUnplug: (() => void) | null = null;

  constructor(opts: DeviceOptions) {
    this.clock = opts.clock;
    this.model = new AstronodeModel(opts);
    this.faults = new FaultPlanner();
    if (opts.faults) this.faults.set(opts.faults);
    this.processingMs = opts.processingMs ?? 2;
    this.flashWriteMs = opts.flashWriteMs ?? 150;
    this.baud = opts.baud ?? null;
    this.onExchange = opts.onExchange ?? (() => {});
    // a freshly powered module shows the same start-up quirk as a reset one (when the fault is on)
    this.quirkArmed = true;
    this.model.on((e) => {
      if (e.kind === "reset") {
        this.deafUntil = this.clock.now() + this.model.bootMs;
        this.quirkArmed = true;
        this.inbox = [];
        this.decoder.reset();
      }
    });
  }

  attach(link: Link): void {
    this.detach();
    this.link = link;
    this.decoder.reset();
    this.unsubscribe = [
      link.onData((chunk) => {
        // a booting module does not hear anything
        const now = this.clock.now();
        if (now < this.deafUntil) return;
        const ms = this.charMs();
        this.rxFreeAt = ms ? Math.max(now, this.rxFreeAt) + chunk.length * ms : now;
        for (const r of this.decoder.push(chunk)) this.inbox.push({ r, at: this.rxFreeAt });
        this.pump();
      }),
      link.onClose(() => {
        if (this.link === link) this.detach();
      }),
    ];
  }

  detach(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    this.link = null;
    for (const { r } of this.inbox)
      this.onExchange({
        index: this.index++,
        request: r.kind === "frame" ? r.frame.text : r.text,
        corrupted: false,
        answer: null,
        fault: "lost",
        delayMs: 0,
      });
    this.inbox = [];
    this.busy = false;
  }

  get attached(): boolean {
    return this.link !== null;
  }

  private pump(): void {
    if (this.busy) return;
    const next = this.inbox.shift();
    if (!next) return;
    this.busy = true;
    const link = this.link;
    this.process(next, link).finally(() => {
      if (this.link !== link) return;
      this.busy = false;
      this.pump();
    });
  }

  private wait(ms: number): Promise<void> {
    return new Promise((r) => this.clock.setTimeout(r, ms));
  }

  /** milliseconds one character takes on the line (start + 8 data + stop bits), 0 when unpaced */
  private charMs(): number {
    return this.baud ? 10_000 / this.baud : 0;
  }

  /** Writes as the UART would: slice by slice, each when its last character has crossed the line. */
  private async send(link: Link, bytes: Uint8Array): Promise<void> {
    const ms = this.charMs();
    if (!ms) return link.write(bytes).catch(() => undefined);
    const start = this.clock.now();
    for (let i = 0; i < bytes.length; i += SLICE) {
      const end = Math.min(bytes.length, i + SLICE);
      const due = start + end * ms - this.clock.now();
      if (due > 0) await this.wait(due);
      if (!link.isOpen || this.link !== link) return;
      await link.write(bytes.subarray(i, end)).catch(() => undefined);
    }
  }

  private async process(heard: Heard, link: Link | null): Promise<void> {
    const { r } = heard;
    // the request is complete only when its last character has crossed the line
    const still = heard.at - this.clock.now();
    if (still > 0) await this.wait(still);
    const index = this.index++;
    const plan = this.faults.plan();
    const request = r.kind === "frame" ? r.frame.text : r.text;
    const corrupted = plan.corruptRequest && r.kind === "frame";
    const parsed = corrupted ? parseFrameText(this.faults.flipDigit(request)) : r;
    const quirk = this.quirkArmed && this.faults.current.firstRequestLost;
    this.quirkArmed = false;
    if (quirk) {
      this.onExchange({ index, request, corrupted, answer: null, fault: "quirk", delayMs: 0 });
      return;
    }
    const answer =
      parsed.kind === "frame"
        ? this.model.handle(parsed.frame.opcode, parsed.frame.payload)
        : {
            opcode: ERROR_OPCODE,
            payload: u16(parsed.problem === "too_long" ? ERR.LENGTH_NOT_VALID : ERR.CRC_NOT_VALID),
          };
    const text = frameText(answer.opcode, answer.payload);
    const slow = parsed.kind === "frame" && FLASH_OPCODES.has(parsed.frame.opcode) ? this.flashWriteMs : 0;
    this.onExchange({
      index,
      request,
      corrupted,
      answer: plan.fault === "disconnect" ? null : text,
      fault: plan.fault,
      delayMs: plan.delayMs,
    });
    await this.wait(this.processingMs + slow + plan.delayMs);
    if (!link?.isOpen || this.link !== link) return;
    if (plan.noise) await this.send(link, plan.noise);
    switch (plan.fault) {
      case "disconnect":
        this.onUnplug?.();
        return;
      case "drop":
        return;
      case "corrupt":
        await this.send(link, textToWire(this.faults.flipDigit(text)));
        return;
      case "truncate":
        await this.send(link, this.faults.cut(encodeFrame(answer.opcode, answer.payload)));
        return;
      default:
        await this.send(link, encodeFrame(answer.opcode, answer.payload));
    }
  }

  /** The RESET pin: the module reboots, goes deaf for its boot time and forgets unsaved configuration. */
  reset(): void {
    this.model.reset(2);
  }

  stop(): void {
    this.model.stop();
    this.detach();
  }
}

function u16(v: number): Uint8Array {
  return Uint8Array.of(v & 0xff, v >> 8);
}
