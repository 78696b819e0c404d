// Stand-ins for the Electron objects the app wires (the Electron binary cannot run in CI).
import { EventEmitter } from "node:events";
import type { IpcEventLike, IpcMainLike } from "../ipc.ts";

export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** what ipcRenderer.invoke does: runs the handler with an event naming the calling frame */
  invoke(channel: string, frameUrl: string, ...args: unknown[]): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) return Promise.reject(new Error(`No handler registered for '${channel}'`));
    return Promise.resolve(h({ senderFrame: { url: frameUrl } }, ...args));
  }
}

/** ipcRenderer over a FakeIpcMain, as the page at `frameUrl` would see it */
export class FakeIpcRenderer extends EventEmitter {
  readonly invoked: unknown[][] = [];
  constructor(
    private readonly main: FakeIpcMain,
    private readonly frameUrl = "app://renderer/index.html",
  ) {
    super();
  }
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push([channel, ...args]);
    return this.main.invoke(channel, this.frameUrl, ...args);
  }
  /** main → renderer: what webContents.send delivers */
  deliver(channel: string, message: unknown): void {
    this.emit(channel, { sender: "the IpcRendererEvent, which must not reach the page" }, message);
  }
}

export class FakeContextBridge {
  readonly exposed = new Map<string, unknown>();
  exposeInMainWorld(key: string, api: unknown): void {
    if (this.exposed.has(key)) throw new Error(`${key} exposed twice`);
    this.exposed.set(key, api);
  }
}
