// The session as the screens show it: which screen is up (start, loading, designer), the open project's save
// status and version, the problem the start screen shows and the designer's notice; and the host connection every
// session job calls through.
import { create } from "zustand";
import type { HostApi } from "#host/api/contract.ts";

export type SaveStatus = "saved" | "pending" | "saving" | "invalid" | "error" | "conflict";

export interface SessionState {
  api: HostApi | null;
  shell: "electron" | "browser";
  screen: "start" | "loading" | "designer";
  /** version the next save builds on */
  version: number;
  save: { status: SaveStatus; message: string | null; savedAt: string | null };
  /** a problem opening/creating/importing, shown on the start screen */
  startError: { title: string; detail: string } | null;
  /** a problem from a designer action (rename, download) shown in the top bar */
  notice: { kind: "error" | "info"; text: string } | null;
}

export const useSession = create<SessionState>()(() => ({
  api: null,
  shell: "browser",
  screen: "start",
  version: 0,
  save: { status: "saved", message: null, savedAt: null },
  startError: null,
  notice: null,
}));

/** The host connection (main.tsx sets it before anything is opened). */
export function hostApi(): HostApi {
  const a = useSession.getState().api;
  if (!a) throw new Error("host not connected");
  return a;
}

export function setSave(status: SaveStatus, message: string | null = null): void {
  useSession.setState((s) => ({ save: { ...s.save, status, message } }));
}
