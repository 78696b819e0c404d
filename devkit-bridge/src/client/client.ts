// The host side of the serial protocol: one request in flight, answer timeouts, resynchronisation after
// anything went wrong, and a log of every frame.
import { realClock, type Clock, type TimerHandle } from "../clock.ts";
import {
  BadAnswerError,
  ClosedError,
  CorruptAnswerError,
  DevkitError,
  DisconnectedError,
  ModuleError,
  TimeoutError,
} from "../errors.ts";
import type { Link } from "../link/types.ts";
import { ERR } from "../protocol/codes.ts";
import {
  ANSWER_BIT,
  COMMANDS,
  DUMMY_OPCODE,
  type AnswerOf,
  type CommandDef,
  type CommandName,
  type RequestOf,
} from "../protocol/commands.ts";
import { describeFrame } from "../protocol/describe.ts";
import {
  encodeFrame,
  ERROR_OPCODE,
  FrameDecoder,
  frameText,
  MAX_ANSWER_TEXT,
  type Frame,
  type Received,
} from "../protocol/frame.ts";

export const DEFAULT_TIMEOUT_MS = 1500;

export type FrameStatus = "ok" | "error" | "probe" | "stale" | "bad";

export interface FrameLogEntry {
  /** clock time in ms (wall clock in the app) */
  at: number;
  dir: "tx" | "rx";
  /** the characters between STX and ETX */
  text: string;
  decoded: string;
  /** ok/error: a request or its answer; probe: resynchronisation traffic; stale: an answer nobody waits for; bad: damaged */
  status: FrameStatus;
}

export interface ClientOptions {
  clock?: Clock;
  /** answer timeout of ordinary commands (slow flash commands bring their own) */
  timeoutMs?: number;
  /** how long one resynchronisation probe waits; the module answers a probe at once when it is listening */
  probeTimeoutMs?: number;
  maxProbes?: number;
  /**
   * An answer later than this after its request counts as lost for good: without it, a run of unanswered
   * probes would use up every probe kind and the client could never resynchronise again.
   */
  staleHorizonMs?: number;
  onFrame?: (e: FrameLogEntry) => void;
}

type Verdict = { take: true; value: unknown } | { take: false; status: FrameStatus };
type Classify = (r: Received) => Verdict;

interface Waiter {
  classify: Classify;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/**
 * Probes used to find where the answer stream stands after a timeout or a damaged answer. The protocol has
 * no sequence numbers, so a probe only counts when its answer cannot be confused with a late answer to
 * anything sent since the last good exchange: each probe kind is used once per window, and the dummy
 * (answered OPCODE_NOT_VALID) is skipped when a request that could earn the same error is still out.
 */
interface Probe {
  opcode: number;
  matches(f: Frame): boolean;
  conflictsWith(opcode: number): boolean;
}

const errorCode = (f: Frame): number | undefined =>
  f.opcode === ERROR_OPCODE && f.payload.length === 2 ? f.payload[0]! | (f.payload[1]! << 8) : undefined;

const readProbe = (def: CommandDef<unknown, unknown>): Probe => ({
  opcode: def.opcode,
  matches: (f) => f.opcode === (def.opcode | ANSWER_BIT),
  conflictsWith: (op) => op === def.opcode,
});

const PROBES: readonly Probe[] = [
  {
    opcode: DUMMY_OPCODE,
    matches: (f) => errorCode(f) === ERR.OPCODE_NOT_VALID,
    // WIF_WR earns OPCODE_NOT_VALID on a satellite module, unknown opcodes everywhere
    conflictsWith: (op) =>
      op === DUMMY_OPCODE || op === COMMANDS.WIF_WR.opcode || !Object.values(COMMANDS).some((c) => c.opcode === op),
  },
  ...[COMMANDS.RTC_RR, COMMANDS.MPN_RR, COMMANDS.MGI_RR, COMMANDS.MSN_RR, COMMANDS.CFG_RR].map((c) =>
    readProbe(c as CommandDef<unknown, unknown>),
  ),
];

export class AstronodeClient {
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly probeTimeoutMs: number;
  private readonly maxProbes: number;
  private readonly onFrame: (e: FrameLogEntry) => void;
  private link: Link | null = null;
  private unsubscribe: (() => void)[] = [];
  private readonly decoder = new FrameDecoder(MAX_ANSWER_TEXT);
  private waiter: Waiter | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  /** requests sent since the last good exchange whose answers may still arrive */
  private stale: { opcode: number; at: number }[] = [];
  private readonly staleHorizonMs: number;
  private synced = false;
  private closed = false;

  constructor(link: Link | null, opts: ClientOptions = {}) {
    this.clock = opts.clock ?? realClock;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.probeTimeoutMs = opts.probeTimeoutMs ?? 500;
    this.maxProbes = Math.min(opts.maxProbes ?? 4, PROBES.length - 1);
    this.staleHorizonMs = opts.staleHorizonMs ?? 10_000;
    this.onFrame = opts.onFrame ?? (() => {});
    if (link) this.attach(link);
  }

  /** Longest a call can take once it is first in line: resynchronisation, then its own timeout. */
  worstCaseMs(def: { timeoutMs?: number } = {}): number {
    return this.maxProbes * this.probeTimeoutMs + (def.timeoutMs ?? this.timeoutMs);
  }

  get isOpen(): boolean {
    return !!this.link?.isOpen && !this.closed;
  }

  /** Uses a (re)opened link; the module may have restarted meanwhile, so the next call resynchronises first. */
  attach(link: Link): void {
    this.detach();
    this.link = link;
    this.synced = false;
    this.decoder.reset();
    this.unsubscribe = [
      link.onData((chunk) => {
        for (const r of this.decoder.push(chunk)) this.received(r);
      }),
      link.onClose((reason) => {
        this.synced = false;
        this.waiter?.reject(
          new DisconnectedError(reason ? `the DevKit went away: ${reason.message}` : "the port was closed"),
        );
      }),
    ];
  }

  private detach(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    this.link = null;
  }

  /** The module restarted (reset pin, power): its first request may go unanswered, so resynchronise first. */
  markRestarted(): void {
    this.synced = false;
  }

  private log(dir: "tx" | "rx", text: string, decoded: string, status: FrameStatus): void {
    this.onFrame({ at: this.clock.now(), dir, text, decoded, status });
  }

  private received(r: Received): void {
    const w = this.waiter;
    const verdict: Verdict = w ? w.classify(r) : { take: false, status: r.kind === "bad" ? "bad" : "stale" };
    if (r.kind === "bad") this.log("rx", r.text, `damaged frame: ${r.detail}`, "bad");
    else if (verdict.take)
      this.log("rx", r.frame.text, describeFrame(r.frame, "rx"), r.frame.opcode === ERROR_OPCODE ? "error" : "ok");
    else this.log("rx", r.frame.text, describeFrame(r.frame, "rx"), verdict.status);
    if (verdict.take) w!.resolve(verdict.value);
    // something arrived that nobody asked for: the stream is not where we think it is
    else if (!w) this.synced = false;
  }

  /** Sends one frame and waits for the first received frame `classify` takes; the timer starts once it is sent. */
  private async transact(
    opcode: number,
    payload: Uint8Array,
    timeoutMs: number,
    classify: Classify,
    status: FrameStatus,
    what: string,
  ): Promise<unknown> {
    const link = this.link;
    if (!link?.isOpen) throw new DisconnectedError("the DevKit is not connected");
    let timer: TimerHandle | null = null;
    let armed = true;
    const result = new Promise<unknown>((resolve, reject) => {
      const done = () => {
        armed = false;
        this.clock.clearTimeout(timer);
        if (this.waiter === w) this.waiter = null;
      };
      const w: Waiter = {
        classify,
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
      };
      this.waiter = w;
    });
    result.catch(() => undefined);
    const text = frameText(opcode, payload);
    this.log("tx", text, describeFrame({ opcode, payload, text }, "tx"), status);
    this.stale.push({ opcode, at: this.clock.now() });
    try {
      await link.write(encodeFrame(opcode, payload));
    } catch (e) {
      this.waiter?.reject(
        e instanceof DevkitError
          ? e
          : new DisconnectedError(`writing to ${link.description} failed: ${(e as Error).message}`),
      );
      return result;
    }
    if (armed) timer = this.clock.setTimeout(() => this.waiter?.reject(new TimeoutError(what, timeoutMs)), timeoutMs);
    return result;
  }

  /**
   * Finds where the answer stream stands: probes until the latest probe is answered, discarding whatever
   * stale answers arrive before it. The module answers in order, so an answer to an earlier probe proves
   * everything sent before that probe is answered or lost. Also the dummy-first-request workaround after a
   * (re)connect or restart.
   */
  private async resync(): Promise<boolean> {
    const sent: Probe[] = [];
    for (let i = 0; i < this.maxProbes; i++) {
      const now = this.clock.now();
      this.stale = this.stale.filter((s) => now - s.at < this.staleHorizonMs);
      const probe = PROBES.find((p) => !sent.includes(p) && !this.stale.some((s) => p.conflictsWith(s.opcode)));
      if (!probe) {
        // every probe kind may still be answered late: wait for the window to pass instead of guessing
        await new Promise<void>((r) => this.clock.setTimeout(r, this.probeTimeoutMs));
        continue;
      }
      sent.push(probe);
      const classify: Classify = (r) => {
        if (r.kind !== "frame") return { take: false, status: "bad" };
        if (probe.matches(r.frame)) return { take: true, value: null };
        const earlier = sent.find((p) => p.matches(r.frame));
        if (earlier) {
          const at = this.stale.findIndex((s) => s.opcode === earlier.opcode);
          if (at >= 0) this.stale = this.stale.slice(at + 1);
          return { take: false, status: "probe" };
        }
        return { take: false, status: "stale" };
      };
      try {
        await this.transact(probe.opcode, new Uint8Array(0), this.probeTimeoutMs, classify, "probe", "resync probe");
        this.stale = [];
        this.synced = true;
        return true;
      } catch (e) {
        if (!(e instanceof TimeoutError)) throw e;
      }
    }
    return false;
  }

  /** Makes sure the module listens (sends the dummy first); safe to call any time. */
  sync(): Promise<boolean> {
    return this.enqueue(async () => this.synced || this.resync());
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.tail.then(() => {
      if (this.closed) throw new ClosedError("the DevKit client was closed");
      return job();
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** One command, typed by name. */
  call<N extends CommandName>(name: N, req: RequestOf<N>): Promise<AnswerOf<N>> {
    return this.send(COMMANDS[name] as unknown as CommandDef<RequestOf<N>, AnswerOf<N>>, req);
  }

  send<Req, Ans>(def: CommandDef<Req, Ans>, req: Req): Promise<Ans> {
    // a request the frame cannot carry fails before it waits in line
    const payload = def.encodeRequest(req);
    return this.enqueue(async () => {
      if (!this.synced && !(await this.resync()))
        throw new TimeoutError(
          def.name,
          this.maxProbes * this.probeTimeoutMs,
          `the module did not answer ${this.maxProbes} resynchronisation probes; is it powered and on this port?`,
        );
      const answerOpcode = def.opcode | ANSWER_BIT;
      const classify: Classify = (r) => {
        if (r.kind === "bad") return { take: true, value: new CorruptAnswerError(def.name, r.detail) };
        const f = r.frame;
        const code = errorCode(f);
        if (f.opcode === ERROR_OPCODE)
          return {
            take: true,
            value:
              code === undefined
                ? new BadAnswerError(`${def.name}: malformed error answer`)
                : new ModuleError(def.name, code),
          };
        if (f.opcode !== answerOpcode) return { take: false, status: "stale" };
        try {
          const ans = def.decodeAnswer(f.payload);
          if (def.answerMatches && !def.answerMatches(req, ans)) return { take: false, status: "stale" };
          return { take: true, value: { ans } };
        } catch (e) {
          return {
            take: true,
            value: e instanceof DevkitError ? e : new BadAnswerError(`${def.name}: ${(e as Error).message}`),
          };
        }
      };
      let out: unknown;
      try {
        out = await this.transact(def.opcode, payload, def.timeoutMs ?? this.timeoutMs, classify, "ok", def.name);
      } catch (e) {
        this.synced = false;
        throw e;
      }
      if (out instanceof CorruptAnswerError || out instanceof BadAnswerError) {
        // the damaged frame may not even have been ours: find the stream again before the next request
        this.synced = false;
        throw out;
      }
      this.stale = [];
      if (out instanceof Error) throw out;
      return (out as { ans: Ans }).ans;
    });
  }

  /** Rejects queued calls and stops listening; the link itself belongs to whoever opened it. */
  close(): void {
    this.closed = true;
    this.waiter?.reject(new ClosedError("the DevKit client was closed"));
    this.detach();
  }
}
