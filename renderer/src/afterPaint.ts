// Work that must not delay the frame a keystroke is waiting for: it runs once that frame is painted.

/**
 * Calls `cb` right after the next frame is painted: requestAnimationFrame runs just before the frame, a task
 * queued from it runs after. A hidden page draws no frames, and Node (tests) has none: a timer stands in.
 */
export function afterPaint(cb: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    cb();
  };
  if (typeof requestAnimationFrame === "function")
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        ch.port1.close();
        run();
      };
      ch.port2.postMessage(0);
    });
  setTimeout(run, 100);
}
