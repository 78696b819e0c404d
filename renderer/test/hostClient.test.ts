import { describe, expect, it } from "vitest";
import { browserHost } from "../src/host/browser.ts";
import { asHostError, HostCallError } from "../src/host/errors.ts";
import { takeToken } from "../src/host/token.ts";

function memoryStore() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe("session token", () => {
  it("takes the token out of the fragment, keeps the rest, and remembers it for reloads", () => {
    const store = memoryStore();
    expect(takeToken("#token=abc123&x=1", store)).toEqual({ token: "abc123", rest: "#x=1" });
    expect(takeToken("#token=abc123", store)).toEqual({ token: "abc123", rest: "" });
    expect(takeToken("", store)).toEqual({ token: "abc123", rest: "" });
    expect(takeToken("#section", store)).toEqual({ token: "abc123", rest: "#section" });
  });

  it("has no token when neither the fragment nor the store holds one", () => {
    expect(takeToken("#other", memoryStore()).token).toBeNull();
  });
});

class FakeSocket extends EventTarget {
  closed = false;
  constructor(readonly url: string) {
    super();
  }
  close() {
    this.closed = true;
  }
  emit(data: string) {
    const ev = new Event("message") as Event & { data: string };
    ev.data = data;
    this.dispatchEvent(ev);
  }
}

describe("browser transport", () => {
  it("POSTs JSON with the token header to /api/call/<method> and returns the body", async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const api = browserHost({
      token: "tok",
      origin: "http://127.0.0.1:5000",
      fetchImpl: async (url, init) => {
        seen.push({ url: String(url), init: init! });
        return new Response(JSON.stringify([{ id: "p", name: "P", updatedAt: "x", version: 1, filePath: null }]), {
          status: 200,
        });
      },
    });
    const list = await api.call("projects.list", { limit: 5 });
    expect(list[0]!.id).toBe("p");
    expect(seen[0]!.url).toBe("http://127.0.0.1:5000/api/call/projects.list");
    expect(seen[0]!.init.method).toBe("POST");
    expect((seen[0]!.init.headers as Record<string, string>)["x-satpayload-token"]).toBe("tok");
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ limit: 5 });
  });

  it("turns error bodies into HostCallError with code and issues", async () => {
    const api = browserHost({
      token: "t",
      origin: "http://h",
      fetchImpl: async () =>
        new Response(
          JSON.stringify({
            code: "invalid_layout",
            message: "bad layout",
            issues: [{ path: "fields[0].key", message: "too short" }],
          }),
          { status: 400 },
        ),
    });
    const err = await api.call("files.importLayout", { fileName: "x.json", content: "{}" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostCallError);
    expect((err as HostCallError).code).toBe("invalid_layout");
    expect((err as HostCallError).describe()).toBe("bad layout — fields[0].key: too short");
  });

  it("reports a conflict from a bare 409 and a network failure as such", async () => {
    const conflict = browserHost({
      token: "t",
      origin: "http://h",
      fetchImpl: async () => new Response("oops", { status: 409 }),
    });
    expect(
      (
        (await conflict
          .call("projects.save", { id: "a", layout: {}, baseVersion: 1 })
          .catch((e: unknown) => e)) as HostCallError
      ).code,
    ).toBe("conflict");
    const down = browserHost({
      token: "t",
      origin: "http://h",
      fetchImpl: async () => {
        throw new TypeError("Failed to fetch");
      },
    });
    const err = (await down.call("app.info", {}).catch((e: unknown) => e)) as HostCallError;
    expect(err.code).toBe("network");
    expect(err.message).toContain("Failed to fetch");
  });

  it("opens one events socket with the token and dispatches frames by event name", () => {
    const sockets: FakeSocket[] = [];
    const api = browserHost({
      token: "a b",
      origin: "http://127.0.0.1:7000",
      fetchImpl: async () => new Response("{}"),
      openSocket: (u) => {
        const s = new FakeSocket(u);
        sockets.push(s);
        return s as unknown as WebSocket;
      },
    });
    const got: unknown[] = [];
    const off = api.on("project.saved", (p) => got.push(p));
    api.on("project.changed", () => got.push("changed"));
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.url).toBe("ws://127.0.0.1:7000/api/events?token=a%20b");
    sockets[0]!.emit(JSON.stringify({ event: "project.saved", payload: { id: "p", version: 3, updatedAt: "t" } }));
    sockets[0]!.emit("not json");
    sockets[0]!.emit(JSON.stringify({ event: "project.changed", payload: { id: "p" } }));
    off();
    sockets[0]!.emit(JSON.stringify({ event: "project.saved", payload: { id: "p", version: 4, updatedAt: "t" } }));
    expect(got).toEqual([{ id: "p", version: 3, updatedAt: "t" }, "changed"]);
    api.close();
    expect(sockets[0]!.closed).toBe(true);
  });
});

describe("Electron errors", () => {
  it("recovers the HostErrorBody from an IPC error message", () => {
    const e = asHostError(
      new Error(
        `Error invoking remote method 'host:call': ${JSON.stringify({ code: "not_found", message: "no project x" })}`,
      ),
    );
    expect(e.code).toBe("not_found");
    expect(e.message).toBe("no project x");
    expect(asHostError(new Error("plain")).code).toBe("network");
  });

  it("takes the preload's plain HostErrorBody rejection as is", () => {
    const e = asHostError({
      code: "conflict",
      message: "version 3 is stale",
      issues: [{ path: "baseVersion", message: "older than version 4" }],
    });
    expect(e.code).toBe("conflict");
    expect(e.describe()).toBe("version 3 is stale — baseVersion: older than version 4");
  });
});

describe("error text", () => {
  it("does not repeat an issue the message already says", () => {
    expect(
      new HostCallError("invalid_layout", "x.json: not valid JSON: end of input", [
        { path: "", message: "not valid JSON: end of input" },
      ]).describe(),
    ).toBe("x.json: not valid JSON: end of input");
    expect(
      new HostCallError("invalid_layout", "bad", [
        { path: "a", message: "1" },
        { path: "b", message: "2" },
        { path: "c", message: "3" },
        { path: "d", message: "4" },
      ]).describe(2),
    ).toBe("bad — a: 1; b: 2 (+2 more)");
  });

  it("names a layout issue by its field, not its path", () => {
    expect(
      new HostCallError("invalid_layout", "not saved", [
        { path: "fields[2].type.maxCount", where: 'field "Samples"', message: "Count is 100,000; the most is 65,535." },
        { path: "name", where: "", message: "Layout name is empty." },
      ]).describe(),
    ).toBe('not saved — Field "Samples": Count is 100,000; the most is 65,535. Layout name is empty.');
  });
});
