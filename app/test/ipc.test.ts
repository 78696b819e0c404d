import { describe, expect, it } from "vitest";
import { paperPreset } from "#codecs";
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from "#host/api/channels.ts";
import { call, testHost } from "#host/test/support.ts";
import { API_KEY, exposeHostApi } from "../bridge.ts";
import { registerHostIpc } from "../ipc.ts";
import { isAppUrl } from "../protocol.ts";
import { FakeContextBridge, FakeIpcMain, FakeIpcRenderer } from "./fakes.ts";

type Api = {
  call(method: string, req?: unknown): Promise<unknown>;
  on(event: string, cb: (p: unknown) => void): () => void;
};

function wire() {
  const host = testHost({ shell: "electron" });
  const ipcMain = new FakeIpcMain();
  const sent: [string, unknown][] = [];
  const renderers: FakeIpcRenderer[] = [];
  const dispose = registerHostIpc({
    ipcMain,
    dispatch: host.dispatch,
    events: host.events,
    isTrustedUrl: isAppUrl,
    broadcast: (channel, message) => {
      sent.push([channel, message]);
      for (const r of renderers) r.deliver(channel, message);
    },
  });
  const page = (frameUrl?: string) => {
    const ipc = new FakeIpcRenderer(ipcMain, frameUrl);
    renderers.push(ipc);
    const bridge = new FakeContextBridge();
    exposeHostApi(bridge, ipc);
    return { ipc, bridge, api: bridge.exposed.get(API_KEY) as Api };
  };
  return { host, ipcMain, sent, dispose, page };
}

describe("Electron IPC wiring", () => {
  it("registers one channel that validates, routes to the handlers and answers with an envelope", async () => {
    const { ipcMain, host } = wire();
    expect([...ipcMain.handlers.keys()]).toEqual([IPC_CALL_CHANNEL]);
    const ok = await ipcMain.invoke(IPC_CALL_CHANNEL, "app://renderer/index.html", { method: "app.info", req: {} });
    expect(ok).toEqual({ ok: true, result: await call(host, "app.info", {}) });
    expect((ok as { result: { shell: string } }).result.shell).toBe("electron");

    const invalid = await ipcMain.invoke(IPC_CALL_CHANNEL, "app://renderer/", {
      method: "projects.create",
      req: { name: "x", layout: { ...paperPreset, name: "" } },
    });
    expect(invalid).toMatchObject({ ok: false, error: { code: "invalid_layout", issues: [{ path: "name" }] } });
    expect(await ipcMain.invoke(IPC_CALL_CHANNEL, "app://renderer/", { method: "nope.nothing", req: {} })).toEqual({
      ok: false,
      error: { code: "not_found", message: 'unknown method "nope.nothing"' },
    });
  });

  it("rejects malformed payloads and calls from frames that are not the app", async () => {
    const { ipcMain } = wire();
    for (const payload of [
      undefined,
      null,
      "app.info",
      { method: 5, req: {} },
      { method: "", req: {} },
      { method: "app.info", req: {}, extra: 1 },
      { req: {} },
    ]) {
      const r = await ipcMain.invoke(IPC_CALL_CHANNEL, "app://renderer/index.html", payload);
      expect(r, JSON.stringify(payload)).toMatchObject({
        ok: false,
        error: { code: "bad_request", message: "malformed IPC payload: expected { method, req }" },
      });
    }
    const bad = await ipcMain.invoke(IPC_CALL_CHANNEL, "app://renderer/", {
      method: "projects.list",
      req: { limit: "all" },
    });
    expect(bad).toMatchObject({ ok: false, error: { code: "bad_request", issues: [{ path: "limit" }] } });
    for (const url of [
      "https://attacker.example/",
      "file:///tmp/x.html",
      "app://other/index.html",
      "app://renderer.evil/x",
      "",
    ]) {
      const r = await ipcMain.invoke(IPC_CALL_CHANNEL, url, { method: "app.info", req: {} });
      expect(r, url).toMatchObject({ ok: false, error: { code: "forbidden" } });
    }
  });

  it("forwards host events to the windows and stops after dispose", async () => {
    const { host, ipcMain, sent, dispose } = wire();
    const p = await call(host, "projects.create", { name: "x", layout: paperPreset });
    expect(sent).toEqual([[IPC_EVENT_CHANNEL, { event: "project.changed", payload: { id: p.id } }]]);
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
    expect(host.events.size).toBe(0);
    await call(host, "projects.rename", { id: p.id, name: "y" });
    expect(sent).toHaveLength(1);
  });
});

describe("preload bridge", () => {
  it("exposes exactly call and on as window.satpayload", () => {
    const { page } = wire();
    const { bridge, api } = page();
    expect([...bridge.exposed.keys()]).toEqual(["satpayload"]);
    expect(Object.keys(api).sort()).toEqual(["call", "on"]);
    expect(typeof api.call).toBe("function");
    expect(typeof api.on).toBe("function");
  });

  it("resolves with results and rejects with the plain HostErrorBody", async () => {
    const { page } = wire();
    const { api, ipc } = page();
    const created = (await api.call("projects.create", { name: "Paper", layout: paperPreset })) as {
      id: string;
      version: number;
    };
    expect(created.version).toBe(1);
    expect(ipc.invoked[0]).toEqual([
      IPC_CALL_CHANNEL,
      { method: "projects.create", req: { name: "Paper", layout: paperPreset } },
    ]);
    const err = await api
      .call("projects.save", { id: created.id, layout: paperPreset, baseVersion: 0 })
      .catch((e: unknown) => e);
    expect(err).toEqual({
      code: "conflict",
      message: 'project "Paper" is at version 1, this save was based on version 0',
    });
    expect(err).not.toBeInstanceOf(Error);
    expect(await api.call("app.info")).toMatchObject({ shell: "electron" });
    await expect(api.call(42 as unknown as string, {})).rejects.toEqual({
      code: "bad_request",
      message: "method must be a string",
    });
  });

  it("delivers only the named event's payload and unsubscribes", async () => {
    const { page } = wire();
    const { api, ipc } = page();
    const saved: unknown[] = [];
    const changed: unknown[] = [];
    const off = api.on("project.saved", (p) => saved.push(p));
    api.on("project.changed", (p) => changed.push(p));
    const p = (await api.call("projects.create", { name: "P", layout: paperPreset })) as { id: string };
    const s = (await api.call("projects.save", { id: p.id, layout: paperPreset, baseVersion: 1 })) as {
      updatedAt: string;
    };
    expect(saved).toEqual([{ id: p.id, version: 2, updatedAt: s.updatedAt }]);
    expect(changed).toEqual([{ id: p.id }]);
    off();
    expect(ipc.listenerCount(IPC_EVENT_CHANNEL)).toBe(1);
    await api.call("projects.save", { id: p.id, layout: paperPreset, baseVersion: 2 });
    expect(saved).toHaveLength(1);
    expect(() => api.on("project.saved", "not a function" as unknown as () => void)).toThrow(TypeError);
  });

  it("is refused when the page is not the app", async () => {
    const { page } = wire();
    const { api } = page("https://attacker.example/");
    await expect(api.call("projects.list", {})).rejects.toMatchObject({ code: "forbidden" });
  });
});
