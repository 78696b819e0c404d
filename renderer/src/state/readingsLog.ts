// The user's own log of readings the Readings per message view sizes on instead of generated series
// (issue #27). Kept for the session only: the file is the user's and stays where they keep it; the
// sizes worker imports it (importLog) and sends back its readings or its problems.
import { create } from "zustand";
import type { UserLog } from "../worker/protocol.ts";

interface ReadingsLogState {
  log: UserLog | null;
  /** a newly chosen file, with a new id so figures of an earlier file are never shown for it */
  choose: (name: string, text: string) => void;
  /** back to generated series */
  clear: () => void;
}

let nextId = 1;

export const useReadingsLog = create<ReadingsLogState>((set) => ({
  log: null,
  choose: (name, text) => set({ log: { id: nextId++, name, text } }),
  clear: () => set({ log: null }),
}));
