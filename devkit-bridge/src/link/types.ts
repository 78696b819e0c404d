// A byte pipe to a module: a serial port, a pseudo-terminal, or the in-memory pair the tests use.

export interface Link {
  /** what the UI shows: the device path, or "simulator (memory)" */
  readonly description: string;
  readonly isOpen: boolean;
  /** resolves once the bytes have left (drained), so answer timeouts do not count the sending time */
  write(bytes: Uint8Array): Promise<void>;
  onData(listener: (chunk: Uint8Array) => void): () => void;
  /** `reason` is null for a close we asked for, an Error when the device went away (unplugged) */
  onClose(listener: (reason: Error | null) => void): () => void;
  close(): Promise<void>;
}

/** Opens a link to the same device again (after an unplug); rejects while the device is absent. */
export type LinkFactory = () => Promise<Link>;
