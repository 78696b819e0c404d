// Fan-out of host events to whichever transports are attached (IPC windows, WebSocket clients),
// and the shutdown hooks of what handlers start (serial ports, child processes), run when the host closes.
import type { EventName, EventPayload } from "../api/contract.ts";

export type AnyEventListener = (event: EventName, payload: unknown) => void;

export class HostEvents {
  private readonly listeners = new Set<AnyEventListener>();

  /** returns the unsubscribe function */
  subscribe(listener: AnyEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const l of this.listeners) {
      try {
        l(event, payload);
      } catch (e) {
        // one broken transport must not stop the others from hearing about a save
        console.error(`host event listener failed for ${event}:`, e);
      }
    }
  }

  private readonly closers: (() => void | Promise<void>)[] = [];

  /** `fn` runs once when the host closes (release ports, stop child processes) */
  onClose(fn: () => void | Promise<void>): void {
    this.closers.push(fn);
  }

  /** runs every hook, newest first; one failing hook does not keep the others from running */
  async close(): Promise<void> {
    for (const fn of this.closers.splice(0).reverse()) {
      try {
        await fn();
      } catch (e) {
        console.error("host shutdown hook failed:", e);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
