// A page (or tab) switch paints the new page first and takes the old one down after: removing a page of charts (the
// chart library's unmount effects, thousands of nodes) cost 40–90 ms in the commit that mounted the next page, whose
// first frame waited for it. The page left stays mounted, hidden, until the new one has been painted.
import { startTransition, useEffect, useRef, useState, type ReactNode } from "react";
import { afterPaint } from "../afterPaint.ts";

/** Shows `children(current)`; what `children(previous)` showed stays, hidden, until `current` is on screen. */
export function KeepUntilPainted<K extends string>({
  current,
  children,
}: {
  current: K;
  children: (key: K) => ReactNode;
}) {
  const [state, setShown] = useState<{ current: K; leaving: K | null }>({ current, leaving: null });
  // a new key: the one on screen so far becomes the one leaving (set during render, so the old page is never
  // unmounted in between); a third key before the old one went replaces it as the one leaving
  let shown = state;
  if (shown.current !== current) {
    shown = { current, leaving: shown.current };
    setShown(shown);
  }
  const leaving = shown.leaving !== null && shown.leaving !== current ? shown.leaving : null;
  useEffect(() => {
    if (leaving === null) return;
    let live = true;
    afterPaint(() => {
      if (live) startTransition(() => setShown((s) => (s.leaving === leaving ? { ...s, leaving: null } : s)));
    });
    return () => {
      live = false;
    };
  }, [leaving]);
  // the page being left keeps the very element it was last drawn from, so React does not draw it again
  const drawn = useRef(new Map<K, ReactNode>());
  drawn.current.set(current, children(current));
  for (const k of drawn.current.keys()) if (k !== current && k !== leaving) drawn.current.delete(k);
  const keys = leaving === null ? [current] : [leaving, current];
  return (
    <>
      {keys.map((k) => (
        <div key={k} className="page-slot" hidden={k !== current} data-leaving={k !== current || undefined}>
          {drawn.current.get(k)}
        </div>
      ))}
    </>
  );
}
