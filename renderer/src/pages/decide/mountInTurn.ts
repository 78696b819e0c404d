// Heavy children (a chart library's charts) mounted one per frame rather than all in one commit: the report's
// fourteen charts took ~480 ms of one uninterruptible task (render, commit, the library measuring text), during
// which a click waited; one chart a frame leaves the page answering between them.
import { useEffect, useState, type RefObject } from "react";
import { afterPaint } from "../../afterPaint.ts";

const waiting: (() => void)[] = [];
let pumping = false;

function pump(): void {
  pumping = true;
  afterPaint(() => {
    waiting.shift()?.();
    if (waiting.length) pump();
    else pumping = false;
  });
}

/**
 * False until this component's turn has come (after every earlier caller's, one per painted frame). `placeholder`
 * is what stands in meanwhile: while it is hidden (its page being left, KeepUntilPainted) its turn waits, so a
 * page on its way out does not draw charts in the frames of the page coming in.
 */
export function useMountInTurn(placeholder: RefObject<HTMLElement | null>): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    const turn = () => {
      if (!live) return;
      if (placeholder.current?.closest("[hidden]")) waiting.push(turn);
      else setReady(true);
    };
    waiting.push(turn);
    if (!pumping) pump();
    return () => {
      live = false;
      const i = waiting.indexOf(turn);
      if (i >= 0) waiting.splice(i, 1);
    };
  }, [placeholder]);
  return ready;
}

/** Resolves once every component waiting for its turn has had it (a PNG of every chart needs them drawn). */
export function allTurnsTaken(): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (waiting.length === 0 && !pumping ? resolve() : afterPaint(check));
    check();
  });
}
