// Undo/redo over immutable snapshots; rapid edits of one control merge into one step, as editors do.

export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /** what the last step edited and when, to merge keystrokes into the same control */
  lastKey: string | null;
  lastAt: number;
}

export const MERGE_WINDOW_MS = 800;
const LIMIT = 200;

export function initHistory<T>(present: T): History<T> {
  return { past: [], present, future: [], lastKey: null, lastAt: 0 };
}

/** Records `next`; with the same non-null mergeKey inside the merge window it replaces the last step. */
export function record<T>(h: History<T>, next: T, mergeKey: string | null, now: number): History<T> {
  if (next === h.present) return h;
  const merge = mergeKey !== null && mergeKey === h.lastKey && now - h.lastAt < MERGE_WINDOW_MS && h.past.length > 0;
  const past = merge ? h.past : [...h.past, h.present].slice(-LIMIT);
  return { past, present: next, future: [], lastKey: mergeKey, lastAt: now };
}

export function undo<T>(h: History<T>): History<T> {
  const prev = h.past[h.past.length - 1];
  if (prev === undefined) return h;
  return { past: h.past.slice(0, -1), present: prev, future: [h.present, ...h.future], lastKey: null, lastAt: 0 };
}

export function redo<T>(h: History<T>): History<T> {
  const [next, ...rest] = h.future;
  if (next === undefined) return h;
  return { past: [...h.past, h.present], present: next, future: rest, lastKey: null, lastAt: 0 };
}
