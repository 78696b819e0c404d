// @vitest-environment happy-dom
// Deleting from the start screen (issue #26) over an in-memory host that keeps deleted projects as the real one
// does: the row goes, the toast offers Undo for a while, Recently deleted lists the project until it is restored.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DeletedProject, HostApi, ProjectSummary } from "#host/api/contract.ts";
import { StartScreen } from "./StartScreen.tsx";
import { useDeletion } from "../session/deletion.ts";
import { useSession } from "../session/sessionStore.ts";

function memoryHost() {
  const summary = (id: string, name: string): ProjectSummary => ({
    id,
    name,
    updatedAt: "2026-11-01T09:00:00.000Z",
    version: 3,
    filePath: null,
  });
  let live = [summary("a", "Fleet tracker"), summary("b", "Untitled layout")];
  let deleted: (DeletedProject & { was: ProjectSummary })[] = [];
  const calls: string[] = [];
  const api: HostApi = {
    call: (async (method: string, req: { id?: string }) => {
      calls.push(method);
      switch (method) {
        case "presets.list":
          return [];
        case "projects.list":
          return live.map((p) => ({ ...p }));
        case "projects.deleted":
          return deleted.map(({ was: _was, ...d }) => d);
        case "projects.delete": {
          const p = live.find((x) => x.id === req.id);
          if (!p) return { deleted: false };
          live = live.filter((x) => x !== p);
          deleted.unshift({
            id: p.id,
            name: p.name,
            deletedAt: "2026-11-02T09:00:00.000Z",
            purgeAt: "2026-11-09T09:00:00.000Z",
            was: p,
          });
          return { deleted: true };
        }
        case "projects.restore": {
          const d = deleted.find((x) => x.id === req.id)!;
          deleted = deleted.filter((x) => x !== d);
          live.push(d.was);
          return d.was;
        }
        default:
          throw new Error(`${method} is not part of this test`);
      }
    }) as HostApi["call"],
    on: () => () => {},
  };
  return { api, calls, live: () => live.map((p) => p.id) };
}

/** Lets the host's answers arrive and React render them. */
const settle = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms));

let host: ReturnType<typeof memoryHost>;

beforeEach(() => {
  vi.useFakeTimers();
  host = memoryHost();
  useSession.setState({ api: host.api, screen: "start", startError: null });
  useDeletion.setState({ undo: null, revision: 0, error: null });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("the start screen deletes a project with Undo (issue #26)", () => {
  it("removes the row, offers Undo and lists it in Recently deleted; Undo puts it back", async () => {
    render(<StartScreen />);
    await settle();
    expect(screen.getByTestId("recent-b")).toBeTruthy();
    expect(screen.queryByTestId("recently-deleted")).toBeNull();

    fireEvent.click(screen.getByTestId("delete-b"));
    await settle();
    expect(screen.queryByTestId("recent-b")).toBeNull();
    expect(screen.getByTestId("undo-toast").textContent).toContain("Deleted Untitled layout.");
    expect(screen.getByTestId("deleted-b").textContent).toContain("Untitled layout");
    expect(host.live()).toEqual(["a"]);

    fireEvent.click(screen.getByTestId("undo-delete"));
    await settle();
    expect(screen.getByTestId("recent-b")).toBeTruthy();
    expect(screen.queryByTestId("undo-toast")).toBeNull();
    expect(screen.queryByTestId("recently-deleted")).toBeNull();
    expect(host.calls.filter((c) => c === "projects.restore")).toHaveLength(1);
  });

  it("hides the toast after a while; Restore in Recently deleted still brings the project back", async () => {
    render(<StartScreen />);
    await settle();
    fireEvent.click(screen.getByTestId("delete-a"));
    await settle();
    expect(screen.getByTestId("undo-toast")).toBeTruthy();
    await settle(12_000);
    expect(screen.queryByTestId("undo-toast")).toBeNull();

    fireEvent.click(screen.getByTestId("restore-a"));
    await settle();
    expect(screen.getByTestId("recent-a")).toBeTruthy();
    expect(screen.queryByTestId("recently-deleted")).toBeNull();
    expect(host.live().sort()).toEqual(["a", "b"]);
  });
});
