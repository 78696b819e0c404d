// @vitest-environment happy-dom
// The Stack page keeps the user's context (issue #26, point 7): records stay on screen after Stop, until
// the next Start or Clear, and layouts show by name, not by a project's UUID.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { presetById } from "#codecs";
import type { HostApi } from "#host/api/contract.ts";
import type { StackRecord, StackStatus } from "#host/api/stack.ts";
import { StackPage } from "./StackPage.tsx";
import { useStack } from "./stackStore.ts";
import { useSession } from "../../session/sessionStore.ts";

const PROJECT = "6f1c2a9e-5b7d-4c1e-9a3f-0d2b8e7c4a11";

const status = (state: StackStatus["state"]): StackStatus => ({
  state,
  owner: state === "stopped" ? null : "app",
  ownerPid: null,
  options: null,
  services: [],
  endpoints: null,
  dir: "/tmp/stack",
  startedAt: null,
  error: null,
});

const record = (seq: number, layout: string): StackRecord => ({
  buffer: 0,
  seq,
  messageId: `m-${seq}`,
  receivedAt: 1_700_000_000_000 + seq,
  layout,
  format: "protobuf",
  device: `dev-${seq}`,
  size: 20,
  jsonSize: 60,
  forwardedAt: 1_700_000_000_500,
  refusedAt: null,
  record: { t: seq },
});

const handlers = new Map<string, (payload: unknown) => void>();
const api = {
  call: (async (method: string) => {
    if (method === "stack.status") return status("stopped");
    if (method === "projects.list")
      return [{ id: PROJECT, name: "Tracker", updatedAt: "2026-01-01T00:00:00Z", version: 3, filePath: null }];
    throw new Error(`${method} is not part of this test`);
  }) as HostApi["call"],
  on: ((event: string, fn: (payload: unknown) => void) => {
    handlers.set(event, fn);
    return () => handlers.delete(event);
  }) as HostApi["on"],
} as HostApi;

beforeEach(() => {
  useSession.setState({ api });
  useStack.setState({ status: status("running"), records: [record(1, PROJECT), record(2, "paper")], arrived: 2 });
});
afterEach(cleanup);

describe("Stack page after Stop", () => {
  it("keeps the last run's records, names their layouts, and clears them on Clear", async () => {
    render(<StackPage />);
    // the host reports the stop
    await act(async () => {
      handlers.get("stack.status")?.(status("stopped"));
      await Promise.resolve();
    });
    await screen.findByText("Tracker");
    expect(screen.getByTestId("stack-empty")).toBeTruthy();
    const cells = screen.getAllByTestId("record-layout");
    expect(cells.map((c) => c.textContent)).toEqual(["Tracker", presetById("paper")!.name]);
    expect(cells[0]!.getAttribute("title")).toBe(PROJECT);
    fireEvent.click(screen.getByTestId("stack-records-clear"));
    expect(screen.queryByTestId("stack-records")).toBeNull();
    expect(useStack.getState().records).toEqual([]);
  });
});
