// Time as the client and simulator see it: real timers in the app, a virtual clock in tests so thousands of
// 1500 ms timeouts run in milliseconds without changing the code under test.

/** opaque: whatever the clock needs to cancel the timer */
export type TimerHandle = object;

export interface Clock {
  /** milliseconds; only differences matter */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(t: TimerHandle | null | undefined): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    // a simulator's satellite pass or a poll must never keep a CLI or test process alive on its own
    t.unref?.();
    return t;
  },
  clearTimeout(h) {
    if (h) clearTimeout(h as ReturnType<typeof setTimeout>);
  },
};

interface Pending {
  id: number;
  handle: TimerHandle;
  at: number;
  fn: () => void;
}

/** Time only moves when the test says so; timers due at the same instant fire in the order they were set. */
export class VirtualClock implements Clock {
  private t = 0;
  private seq = 0;
  private timers: Pending[] = [];

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const p = { id: ++this.seq, handle: {}, at: this.t + Math.max(0, ms), fn };
    this.timers.push(p);
    return p.handle;
  }

  clearTimeout(h: TimerHandle | null | undefined): void {
    if (h) this.timers = this.timers.filter((p) => p.handle !== h);
  }

  get pending(): number {
    return this.timers.length;
  }

  /** Lets every promise chain and queued microtask run, so "idle" really means idle. */
  static async settle(): Promise<void> {
    for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
  }

  /** Fires the earliest timer (moving time to it); false when none is left. */
  async step(): Promise<boolean> {
    await VirtualClock.settle();
    if (!this.timers.length) return false;
    let next = this.timers[0]!;
    for (const p of this.timers) if (p.at < next.at || (p.at === next.at && p.id < next.id)) next = p;
    this.timers = this.timers.filter((p) => p !== next);
    this.t = Math.max(this.t, next.at);
    next.fn();
    await VirtualClock.settle();
    return true;
  }

  /** Runs timers up to `ms` from now, then leaves time there. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await VirtualClock.settle();
      const due = this.timers.filter((p) => p.at <= end);
      if (!due.length) break;
      await this.step();
    }
    this.t = end;
  }

  /** Runs timers until `done` settles; fails rather than spinning if nothing is left to fire. */
  async runUntil<T>(p: Promise<T>, limitMs = 3_600_000): Promise<T> {
    let settled = false;
    const watched = p.finally(() => {
      settled = true;
    });
    watched.catch(() => undefined);
    const start = this.t;
    while (!settled) {
      await VirtualClock.settle();
      if (settled) break;
      if (this.t - start > limitMs) throw new Error(`virtual time ran ${limitMs} ms without the operation settling`);
      if (!(await this.step())) {
        await VirtualClock.settle();
        if (!settled) throw new Error("the operation waits for something no timer will ever do (a hang)");
      }
    }
    return watched;
  }
}
