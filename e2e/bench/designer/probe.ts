// What the bench reads inside the page, installed before the app's own scripts: Chromium's Event Timing entries
// (the measure behind Interaction to Next Paint), the paint after each keystroke's input, and the paint after a
// DOM condition first holds (new bars, a page's content). Times are the page's performance.now() clock, the same
// clock as Event.timeStamp, so "keystroke → paint" is the event's own timestamp to the end of the frame after it.

export interface EventEntry {
  name: string;
  startTime: number;
  duration: number;
  processingStart: number;
  processingEnd: number;
  interactionId: number;
}

export interface KeyRecord {
  key: string;
  /** the keydown event's timeStamp (when the input reached the page) */
  downAt: number;
  /** the frame after its `input` event was handled, painted (null: no input event, or not yet) */
  paintedAt: number | null;
}

export interface Painted {
  /** the condition held (seen by a MutationObserver or the first check) */
  seenAt: number;
  /** the end of the frame that showed it */
  paintedAt: number;
}

export interface BarsPainted {
  /** the analysis panel shows sizes for a layout other than the one before (possibly a first estimate) */
  first: Painted;
  /** and nothing is computing or marked as updating any more */
  final: Painted;
}

export interface UxProbe {
  events: EventEntry[];
  keys: KeyRecord[];
  /** pointerdown timeStamps, in order */
  downs: number[];
  /** resolves once the layout key the panel shows differs from `previous`, then once it is final */
  bars(previous: string): Promise<BarsPainted>;
  /** resolves once `selector` matches an element (and, if given, its attribute has the value) */
  element(selector: string, attr?: string, value?: string): Promise<Painted>;
  clear(): void;
}

declare global {
  interface Window {
    __ux?: UxProbe;
  }
}

/** Runs in the page (serialized by Playwright): no imports, no closures over module scope. */
function install(): void {
  // rAF runs just before a frame is drawn; a task queued from it runs right after that frame. At user-blocking
  // priority it runs before the page's ordinary tasks (worker answers, timers) that were already queued, which
  // would otherwise be counted into the paint.
  const post = (cb: () => void) => {
    const sched = (globalThis as { scheduler?: { postTask(cb: () => void, o: { priority: string }): Promise<void> } })
      .scheduler;
    if (sched) void sched.postTask(cb, { priority: "user-blocking" });
    else {
      const ch = new MessageChannel();
      ch.port1.onmessage = cb;
      ch.port2.postMessage(0);
    }
  };
  const afterNextPaint = (cb: (t: number) => void) => requestAnimationFrame(() => post(() => cb(performance.now())));

  const until = (check: () => boolean): Promise<Painted> =>
    new Promise((resolve) => {
      let done = false;
      const test = () => {
        if (done || !check()) return;
        done = true;
        mo.disconnect();
        const seenAt = performance.now();
        afterNextPaint((paintedAt) => resolve({ seenAt, paintedAt }));
      };
      const mo = new MutationObserver(test);
      mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      test();
    });

  const shownKey = () => document.querySelector('[data-testid^="panel-"]')?.getAttribute("data-layout-key") ?? "";
  const settled = () =>
    document.querySelector('[data-testid="compute-state"]')?.getAttribute("data-computing") === "false" &&
    !document.querySelector('[data-pending="true"], [data-stale="true"]');

  const ux: UxProbe = {
    events: [],
    keys: [],
    downs: [],
    async bars(previous) {
      const first = await until(() => shownKey() !== "" && shownKey() !== previous);
      const final = await until(() => shownKey() !== "" && shownKey() !== previous && settled());
      return { first, final };
    },
    element(selector, attr, value) {
      return until(() => {
        const el = document.querySelector(selector);
        return !!el && (attr === undefined || el.getAttribute(attr) === value);
      });
    },
    clear() {
      ux.events.length = 0;
      ux.keys.length = 0;
      ux.downs.length = 0;
    },
  };
  window.__ux = ux;

  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceEventTiming[])
      ux.events.push({
        name: e.name,
        startTime: e.startTime,
        duration: e.duration,
        processingStart: e.processingStart,
        processingEnd: e.processingEnd,
        interactionId: (e as PerformanceEventTiming & { interactionId: number }).interactionId,
      });
  }).observe({ type: "event", durationThreshold: 16, buffered: true } as PerformanceObserverInit);

  addEventListener(
    "keydown",
    (e: KeyboardEvent) => ux.keys.push({ key: e.key, downAt: e.timeStamp, paintedAt: null }),
    true,
  );
  addEventListener(
    "input",
    () => {
      const k = ux.keys[ux.keys.length - 1];
      if (k && k.paintedAt === null) afterNextPaint((t) => (k.paintedAt = t));
    },
    true,
  );
  addEventListener("pointerdown", (e) => ux.downs.push(e.timeStamp), true);
}

/** The script for `page.addInitScript`: esbuild (tsx) may wrap named functions in `__name(…)`, so define it. */
export const PROBE_SCRIPT = `(() => { const __name = (f) => f; (${install.toString()})(); })();`;
