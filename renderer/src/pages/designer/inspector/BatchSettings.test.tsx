// @vitest-environment happy-dom
// The batch settings (issue #27) with the real designer store and session over an in-memory host that validates
// saves with parseLayout: turning a batch on sets it up from the moving fields, each control is one undoable edit
// that is saved like any other, and a setting the layout refuses shows its sentence next to its control.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseLayout, type Field, type Layout } from "#codecs";
import type { HostApi, Project } from "#host/api/contract.ts";
import { Inspector } from "./Inspector.tsx";
import { memoryProjectHost } from "./memoryHost.testing.ts";
import { SAVE_DEBOUNCE_MS } from "../../../session/autosave.ts";
import { DRAFT_WRITE_MAX_MS } from "../../../session/draftSync.ts";
import { goHome, openProject } from "../../../session/projects.ts";
import { useSession } from "../../../session/sessionStore.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { useSettings } from "../../../state/settings.ts";

const FIELDS: Field[] = [
  {
    id: "device",
    key: "device",
    name: "Device id",
    presence: "required",
    type: { kind: "string", maxLength: 12, fixed: false, charset: "alnum" },
  },
  {
    id: "time",
    key: "time",
    name: "Time",
    presence: "required",
    type: { kind: "timestamp", encoding: "epoch", resolution: 1 },
  },
  {
    id: "lat",
    key: "lat",
    name: "Latitude",
    unit: "°",
    presence: "required",
    type: { kind: "fixed", scale: 0.0001, offset: 0, min: -90, max: 90 },
  },
  {
    id: "temp",
    key: "temp",
    name: "Temp",
    presence: "required",
    type: { kind: "fixed", scale: 0.1, offset: 0, min: -40, max: 85 },
  },
  {
    id: "fw",
    key: "fw",
    name: "Firmware",
    presence: "required",
    type: { kind: "int", bits: 16, signed: false },
    sample: { kind: "constant", value: 7 },
  },
];

const memoryHost = () =>
  memoryProjectHost(parseLayout({ format: "satlayout", version: 1, name: "Tracker", fields: FIELDS }), "Tracker");

let host: ReturnType<typeof memoryHost>;

async function open(): Promise<void> {
  useSession.setState({ api: host.api });
  await act(async () => {
    expect(await openProject("p1")).toBe(true);
  });
  render(<Inspector />);
}

async function settle(): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(Math.max(SAVE_DEBOUNCE_MS, DRAFT_WRITE_MAX_MS) + 50);
  });
}

const draft = () => useDesigner.getState().history.present;
const check = () => act(() => useDesigner.getState().checkNow());
const type = (testId: string, text: string) => {
  fireEvent.change(screen.getByTestId(testId), { target: { value: text } });
  check();
};
const click = (testId: string) => {
  fireEvent.click(screen.getByTestId(testId));
  check();
};
const messagesNextTo = (testId: string) =>
  [...screen.getByTestId(testId).closest(".control-wrap")!.querySelectorAll(".field-msg")].map((m) => m.textContent);

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  useSettings.setState({ platforms: ["kineis", "astrocast"] });
  host = memoryHost();
});

afterEach(async () => {
  cleanup();
  await act(async () => {
    await goHome();
  });
  vi.useRealTimers();
});

describe("batch settings", () => {
  it("turns a batch on from the moving fields, saves it, and Undo takes it back", async () => {
    await open();
    expect(screen.queryByTestId("batch-interval")).toBeNull();
    click("batch-on");
    // numbers that move repeat per reading; the id and the constant firmware version are sent once
    expect(draft().batch).toEqual({
      perReading: [{ field: "time" }, { field: "lat" }, { field: "temp" }],
      intervalSeconds: 900,
      // the strictest chosen platform with a limit (Kinéis 30 B before Astrocast 160 B)
      readings: { kind: "fit", platform: "kineis" },
      time: "time",
    });
    expect(screen.getByTestId("batch-interval").closest(".form-row")!.textContent).toContain("A reading every 15 min");
    await settle();
    expect(host.saves.at(-1)?.batch?.intervalSeconds).toBe(900);

    act(() => useDesigner.getState().undo());
    expect(draft().batch).toBeUndefined();
    expect(screen.queryByTestId("batch-interval")).toBeNull();
    act(() => useDesigner.getState().redo());
    expect(draft().batch?.perReading).toHaveLength(3);
  });

  it("unticking the time field sends it once and clears the time; ticking it back keeps layout order", async () => {
    await open();
    click("batch-on");
    click("batch-repeat-time");
    expect(draft().batch?.perReading.map((p) => p.field)).toEqual(["lat", "temp"]);
    expect(draft().batch?.time).toBeUndefined();
    click("batch-repeat-time");
    expect(draft().batch?.perReading.map((p) => p.field)).toEqual(["time", "lat", "temp"]);
    click("batch-repeat-fw");
    expect(draft().batch?.perReading.map((p) => p.field)).toEqual(["time", "lat", "temp", "fw"]);
  });

  it("sets a fixed count and a max rate, and says what the rate allows per reading", async () => {
    await open();
    click("batch-on");
    fireEvent.change(screen.getByTestId("batch-readings-kind"), { target: { value: "fixed" } });
    check();
    type("batch-readings-count", "8");
    expect(draft().batch?.readings).toEqual({ kind: "fixed", count: 8 });
    expect(screen.getByTestId("batch-readings-count").closest(".form-row")!.textContent).toContain(
      "The oldest reading waits 2 h",
    );
    type("batch-rate-lat", "0.0002");
    expect(draft().batch?.perReading.find((p) => p.field === "lat")).toEqual({ field: "lat", maxRate: 0.0002 });
    // 0.0002 °/s × 900 s
    expect(screen.getByTestId("batch-field-lat").textContent).toContain("at most ±0.18 ° between two readings");
    await settle();
    expect(host.saves.at(-1)?.batch?.readings).toEqual({ kind: "fixed", count: 8 });
  });

  it("shows a refused setting's sentence next to its control and saves nothing until it is fixed", async () => {
    await open();
    click("batch-on");
    await settle();
    const saved = host.saves.length;
    type("batch-interval", "0");
    expect(draft().batch?.intervalSeconds).toBe(0);
    expect(messagesNextTo("batch-interval")).toEqual([
      expect.stringMatching(/^Interval is 0 s; it must be more than 0/),
    ]);
    type("batch-rate-temp", "-1");
    expect(messagesNextTo("batch-rate-temp")).toEqual([expect.stringMatching(/must be more than 0/)]);
    expect(useSession.getState().save).toMatchObject({ status: "invalid", message: "2 problems to fix before saving" });
    await settle();
    expect(host.saves.length).toBe(saved);
    type("batch-interval", "600");
    type("batch-rate-temp", "");
    expect(messagesNextTo("batch-interval")).toEqual([]);
    await settle();
    expect(host.saves.at(-1)?.batch?.intervalSeconds).toBe(600);
  });
});
