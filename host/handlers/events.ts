// Fan-out of host events to whichever transports are attached (IPC windows, WebSocket clients).
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

  get size(): number {
    return this.listeners.size;
  }
}
