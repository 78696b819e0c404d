// @vitest-environment happy-dom
// The inspector with the real designer store and the real session (autosave, drafts in storage) over an
// in-memory host that validates saves with parseLayout, as the host does: a value the layout refuses is
// shown at its field, the header says "Not saved" and nothing is saved; text that is not a number is held
// across selections and reloads; a duplicate's key follows its name; a name must show something.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseLayout, type Field, type Layout } from "#codecs";
import type { HostApi, Project } from "#host/api/contract.ts";
import { Inspector } from "./Inspector.tsx";
import { memoryProjectHost } from "./memoryHost.testing.ts";
import { SAVE_DEBOUNCE_MS } from "../../../session/autosave.ts";
import { readDraft } from "../../../session/drafts.ts";
import { DRAFT_WRITE_MAX_MS } from "../../../session/draftSync.ts";
import { goHome, openProject } from "../../../session/projects.ts";
import { renameProject } from "../../../session/rename.ts";
import { useSession } from "../../../session/sessionStore.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { usePendingInputs } from "../../../state/pendingInputs.ts";
import { locate } from "../../../state/tree.ts";
import { duplicate } from "../edits/actions.ts";

const FIELDS: Field[] = [
  {
    id: "lat",
    key: "latitude",
    name: "Latitude",
    presence: "required",
    type: { kind: "float", bits: 32, min: -90, max: 90 },
  },
  {
    id: "samples",
    key: "samples",
    name: "Samples",
    presence: "required",
    type: { kind: "array", of: { kind: "int", bits: 16, signed: true }, maxCount: 3, fixed: false },
  },
  {
    id: "temp",
    key: "temp",
    name: "Temp",
    presence: "required",
    type: { kind: "fixed", scale: 0.1, offset: 0, min: -40, max: 85 },
  },
];

/**
 * A host in memory: projects.open and projects.save, which refuses what parseLayout refuses. `stored` is
 * what an older studio may have saved (no check), by default the test fields.
 */
const memoryHost = (stored: unknown = parseLayout({ format: "satlayout", version: 1, name: "Buoy", fields: FIELDS })) =>
  memoryProjectHost(stored, "Buoy");

let host: ReturnType<typeof memoryHost>;

async function open(): Promise<void> {
  useSession.setState({ api: host.api });
  await act(async () => {
    expect(await openProject("p1")).toBe(true);
  });
}

/** Lets the autosave's debounce and the stored draft's idle write run out, and the host call finish. */
async function settle(): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(Math.max(SAVE_DEBOUNCE_MS, DRAFT_WRITE_MAX_MS) + 50);
  });
}

const select = (id: string | null) => act(() => useDesigner.getState().select(id));
/** Types into a control; the draft is then checked as it is after the keystroke's frame is painted. */
const type = (testId: string, text: string) => {
  fireEvent.change(screen.getByTestId(testId), { target: { value: text } });
  act(() => useDesigner.getState().checkNow());
};
const messagesNextTo = (testId: string) =>
  [...screen.getByTestId(testId).closest(".control-wrap")!.querySelectorAll(".field-msg")].map((m) => m.textContent);
const field = (id: string) => locate(useDesigner.getState().history.present.fields, id)!.field;
const save = () => useSession.getState().save;

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  host = memoryHost();
});

afterEach(async () => {
  cleanup();
  await act(async () => {
    await goHome();
  });
  vi.useRealTimers();
});

describe("inspector: values the layout refuses", () => {
  it("keeps Count 100000 in the draft with its reason at the field, says Not saved and saves nothing", async () => {
    await open();
    render(<Inspector />);
    select("samples");
    type("insp-maxCount", "100000");
    expect(field("samples").type).toMatchObject({ maxCount: 100000 });
    expect(messagesNextTo("insp-maxCount")).toEqual([
      "Count is 100,000; the most is 65,535, because Struct writes a variable count as a uint16, SBE counts group entries in a uint16 (numInGroup) and nanopb and the C export keep array sizes in 16 bits.",
    ]);
    expect(save()).toMatchObject({ status: "invalid", message: "1 problem to fix before saving" });
    await settle();
    expect(host.saves).toEqual([]);
    // the draft in storage holds the refused value, so a reload shows it again with its problem
    expect(readDraft("p1")?.layout.fields[1]?.type).toMatchObject({ maxCount: 100000 });

    type("insp-maxCount", "10000");
    expect(messagesNextTo("insp-maxCount")).toEqual([]);
    await settle();
    expect(save().status).toBe("saved");
    expect(host.saves.at(-1)?.fields[1]?.type).toMatchObject({ maxCount: 10000 });
    expect(readDraft("p1")).toBeNull();
  });

  it("keeps Scale 0 and a fraction where a whole number belongs, each with its reason", async () => {
    await open();
    render(<Inspector />);
    select("temp");
    type("insp-scale", "0");
    expect(messagesNextTo("insp-scale")).toEqual([
      "Scale is 0; it must be more than 0, because value = raw × scale + offset needs a step greater than 0.",
    ]);
    select("samples");
    type("insp-maxCount", "2.5");
    expect(messagesNextTo("insp-maxCount")).toEqual(["Count is 2.5; it must be a whole number."]);
    expect(save()).toMatchObject({ status: "invalid", message: "2 problems to fix before saving" });
    await settle();
    expect(host.saves).toEqual([]);
  });
});

describe("inspector: text that is not a number", () => {
  it("is held with its message across selections and a reload, says Not saved, and Escape gives it up", async () => {
    await open();
    const view = render(<Inspector />);
    select("samples");
    type("insp-maxCount", "abc");
    expect(messagesNextTo("insp-maxCount")).toEqual(['"abc" is not a number; write digits, e.g. 12, -0.5 or 1e3.']);
    expect(field("samples").type).toMatchObject({ maxCount: 3 });
    expect(save()).toMatchObject({ status: "invalid", message: "1 problem to fix before saving" });

    // another field and back: the text is still there
    select("lat");
    select("samples");
    expect((screen.getByTestId("insp-maxCount") as HTMLInputElement).value).toBe("abc");
    await settle();
    expect(host.saves).toEqual([]);

    // a reload: the stores start empty, the project opens from the host and the draft from storage
    view.unmount();
    useDesigner.setState({ projectId: null });
    usePendingInputs.setState({ byKey: new Map() });
    await open();
    render(<Inspector />);
    select("samples");
    expect((screen.getByTestId("insp-maxCount") as HTMLInputElement).value).toBe("abc");
    expect(messagesNextTo("insp-maxCount")).toEqual(['"abc" is not a number; write digits, e.g. 12, -0.5 or 1e3.']);
    expect(save().status).toBe("invalid");

    fireEvent.keyDown(screen.getByTestId("insp-maxCount"), { key: "Escape" });
    expect((screen.getByTestId("insp-maxCount") as HTMLInputElement).value).toBe("3");
    await settle();
    expect(save().status).toBe("saved");
  });

  it("goes with its field when the type changes and the control is no longer shown", async () => {
    await open();
    render(<Inspector />);
    select("samples");
    type("insp-maxCount", "");
    expect(messagesNextTo("insp-maxCount")).toEqual(["Empty: this setting needs a number."]);
    fireEvent.change(screen.getByTestId("insp-type"), { target: { value: "bool" } });
    act(() => useDesigner.getState().checkNow());
    expect(screen.queryByTestId("insp-maxCount")).toBeNull();
    expect(usePendingInputs.getState().byKey.size).toBe(0);
    expect(save().status).not.toBe("invalid");
  });
});

describe("inspector: duplicate and names", () => {
  it("derives the copy's key from its name, follows renames, and keeps a key typed by hand", async () => {
    await open();
    render(<Inspector />);
    act(() => duplicate("lat"));
    const copyId = useDesigner.getState().selectedId!;
    expect(field(copyId)).toMatchObject({ name: "Latitude (copy)", key: "latitude_copy" });
    type("insp-name", "Longitude");
    expect(field(copyId).key).toBe("longitude");
    expect((screen.getByTestId("insp-key") as HTMLInputElement).value).toBe("longitude");
    type("insp-key", "lon");
    type("insp-name", "Longitude (WGS84)");
    expect(field(copyId).key).toBe("lon");
    // the original is untouched
    expect(field("lat")).toMatchObject({ name: "Latitude", key: "latitude" });
    await settle();
    expect(host.saves.at(-1)?.fields.map((f) => f.key)).toEqual(["latitude", "lon", "samples", "temp"]);
  });

  it("refuses a name that shows nothing, at the field, and the header says Not saved", async () => {
    await open();
    render(<Inspector />);
    select("lat");
    type("insp-name", "\u200b ");
    expect(messagesNextTo("insp-name")).toEqual([
      "Name holds only invisible characters (U+200B U+0020); it needs at least one visible character.",
    ]);
    expect(save().status).toBe("invalid");
    await settle();
    expect(host.saves).toEqual([]);
  });

  it("opens a project saved before names had to show something, with the name marked, and saves once fixed", async () => {
    const blank = { ...FIELDS[0]!, name: "  " };
    host = memoryHost({ format: "satlayout", version: 1, name: "Buoy", fields: [blank, ...FIELDS.slice(1)] });
    await open();
    render(<Inspector />);
    expect(save()).toMatchObject({ status: "invalid", message: "1 problem to fix before saving" });
    expect(useSession.getState().notice?.text).toBe(
      "This layout was saved before some of today's rules existed: fix the marked problems to save it again.",
    );
    select("lat");
    expect(messagesNextTo("insp-name")).toEqual([
      "Name holds only invisible characters (U+0020 U+0020); it needs at least one visible character.",
    ]);
    type("insp-name", "Latitude");
    await settle();
    expect(save().status).toBe("saved");
    expect(host.saves.at(-1)?.fields[0]).toMatchObject({ name: "Latitude", key: "latitude" });
  });

  it("keeps the project's name when the new one shows nothing, and says why", async () => {
    await open();
    await act(async () => {
      await renameProject("\u200b\u200b");
    });
    expect(useDesigner.getState().projectName).toBe("Buoy");
    expect(useSession.getState().notice).toEqual({
      kind: "error",
      text: "The project keeps its name: the new one holds only invisible characters (U+200B U+200B); a name needs at least one visible character.",
    });
  });
});
