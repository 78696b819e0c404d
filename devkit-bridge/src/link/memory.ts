// Two connected in-memory link ends, delivering asynchronously like a real port so nothing re-enters.
import { DisconnectedError } from "../errors.ts";
import type { Link } from "./types.ts";

class MemoryEnd implements Link {
  peer!: MemoryEnd;
  private open = true;
  private readonly data = new Set<(c: Uint8Array) => void>();
  private readonly closed = new Set<(r: Error | null) => void>();

  constructor(readonly description: string) {}

  get isOpen(): boolean {
    return this.open;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (!this.open) throw new DisconnectedError(`${this.description} is closed`);
    const copy = bytes.slice();
    const peer = this.peer;
    queueMicrotask(() => {
      if (peer.open && this.open) for (const l of peer.data) l(copy);
    });
  }

  onData(l: (c: Uint8Array) => void): () => void {
    this.data.add(l);
    return () => this.data.delete(l);
  }

  onClose(l: (r: Error | null) => void): () => void {
    this.closed.add(l);
    return () => this.closed.delete(l);
  }

  end(reason: Error | null): void {
    if (!this.open) return;
    this.open = false;
    for (const l of [...this.closed]) l(reason);
  }

  async close(): Promise<void> {
    this.end(null);
    this.peer.end(new DisconnectedError("the other end closed the link"));
  }
}

export interface MemoryPair {
  host: Link;
  device: Link;
  /** both ends drop at once, as when the USB cable is pulled */
  unplug(): void;
}

export function memoryPair(name = "simulator (memory)"): MemoryPair {
  const host = new MemoryEnd(name);
  const device = new MemoryEnd(`${name}, device side`);
  host.peer = device;
  device.peer = host;
  return {
    host,
    device,
    unplug() {
      const why = new DisconnectedError("the device was unplugged");
      host.end(why);
      device.end(why);
    },
  };
}
