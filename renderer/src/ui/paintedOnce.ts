// "Paint the page's frame first, the heavy part after": false on the first render, true once that render's frame has
// been painted. useDeferredValue(true, false) did not guarantee it: React renders the deferred part in tasks that ran
// before the browser's next frame (a page switch painted after ~70 ms of those at load 5, where its frame was ready
// after ~15).
import { startTransition, useEffect, useState } from "react";
import { afterPaint } from "../afterPaint.ts";

export function usePaintedOnce(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let live = true;
    // a transition: the heavy part renders in slices, so a click meanwhile is answered between them
    afterPaint(() => {
      if (live) startTransition(() => setPainted(true));
    });
    return () => {
      live = false;
    };
  }, []);
  return painted;
}
