// The module as seen from its UART: frames in, frames out, one at a time, with boot time, the first-request
// quirk and injected faults. Works over any Link (in memory, or the pseudo-terminal socat provides).
import type { Clock } from "../clock.ts";
import { ERR } from "../protocol/codes.ts";
import { encodeFrame, ERROR_OPCODE, FrameDecoder, frameText, MAX_REQUEST_TEXT, parseFrameText, textToWire, type Received } from "../protocol/frame.ts";
import type { Link } from "../link/types.ts";
import { FaultPlanner, type AnswerFault, type FaultSettings } from "./faults.ts";
import { AstronodeModel, type SimOptions } from "./model.ts";

export interface Exchange {
  /** index of the request frame since the device started (bad frames count too) */
  index: number;
  /** the request as it arrived */
  request: string;
  /** a digit of it was flipped on the way in (the module then answers CRC_NOT_VALID) */
  corrupted: boolean;
  /** what the module meant to answer, before faults; null when it said nothing */
  answer: string | null;
  /** quirk: the first request after a restart, unanswered; lost: still waiting when the device was unplugged */
  fault: AnswerFault | "quirk" | "lost";
  delayMs: number;
}

export interface DeviceOptions extends SimOptions {
  faults?: Partial<FaultSettings>;
  /** time the module takes per request before answering (CFG_SR writes flash: slower) */
  processingMs?: number;
  flashWriteMs?: number;
  /** called with every request and what became of its answer (the fault tests' ground truth) */
  onExchange?: (e: Exchange) => void;
}

const FLASH_OPCODES = new Set([0x10, 0x11]);

export class SimulatedDevice {
  readonly model: AstronodeModel;
  readonly faults: FaultPlanner;
  private readonly clock: Clock;
  private link: Link | null = null;
  private unsubscribe: (() => void)[] = [];
  private readonly decoder = new FrameDecoder(MAX_REQUEST_TEXT);
  private inbox: Received[] = [];
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
    this.onExchange = opts.onExchange ?? (() => {});
    // a freshly powered module shows the same start-up quirk as a reset one
    this.quirkArmed = this.model.firstRequestQuirk;
    this.model.on((e) => {
      if (e.kind === "reset") {
        this.deafUntil = this.clock.now() + this.model.bootMs;
        this.quirkArmed = this.model.firstRequestQuirk;
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
        if (this.clock.now() < this.deafUntil) return;
        this.inbox.push(...this.decoder.push(chunk));
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
    for (const r of this.inbox) this.onExchange({ index: this.index++, request: r.kind === "frame" ? r.frame.text : r.text, corrupted: false, answer: null, fault: "lost", delayMs: 0 });
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

  private async process(r: Received, link: Link | null): Promise<void> {
    const index = this.index++;
    const plan = this.faults.plan();
    const request = r.kind === "frame" ? r.frame.text : r.text;
    const corrupted = plan.corruptRequest && r.kind === "frame";
    const parsed = corrupted ? parseFrameText(this.faults.flipDigit(request)) : r;
    if (this.quirkArmed) {
      this.quirkArmed = false;
      this.onExchange({ index, request, corrupted, answer: null, fault: "quirk", delayMs: 0 });
      return;
    }
    const answer =
      parsed.kind === "frame"
        ? this.model.handle(parsed.frame.opcode, parsed.frame.payload)
        : { opcode: ERROR_OPCODE, payload: u16(parsed.problem === "too_long" ? ERR.LENGTH_NOT_VALID : ERR.CRC_NOT_VALID) };
    const text = frameText(answer.opcode, answer.payload);
    const slow = parsed.kind === "frame" && FLASH_OPCODES.has(parsed.frame.opcode) ? this.flashWriteMs : 0;
    this.onExchange({ index, request, corrupted, answer: plan.fault === "disconnect" ? null : text, fault: plan.fault, delayMs: plan.delayMs });
    await this.wait(this.processingMs + slow + plan.delayMs);
    if (!link?.isOpen || this.link !== link) return;
    if (plan.noise) await link.write(plan.noise).catch(() => undefined);
    switch (plan.fault) {
      case "disconnect":
        this.onUnplug?.();
        return;
      case "drop":
        return;
      case "corrupt":
        await link.write(textToWire(this.faults.flipDigit(text))).catch(() => undefined);
        return;
      case "truncate":
        await link.write(this.faults.cut(encodeFrame(answer.opcode, answer.payload))).catch(() => undefined);
        return;
      default:
        await link.write(encodeFrame(answer.opcode, answer.payload)).catch(() => undefined);
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
