// Typing never waits for validation: an edit changes the draft at once, and the check (validation, the valid
// layout the sizes follow) runs once after the frame is painted, for every edit made before it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Field, Layout } from "#codecs";
import { EMPTY_LAYOUT, useDesigner } from "../src/state/layoutStore.ts";

const u8 = (id: string): Field => ({
  id,
  key: id,
  name: id,
  presence: "required",
  type: { kind: "int", bits: 8, signed: false },
});
const layout: Layout = { ...EMPTY_LAYOUT, name: "check test", fields: [u8("a"), u8("b")] };
const rename = (key: string) =>
  useDesigner.getState().editFields((fs) => fs.map((f) => (f.id === "a" ? { ...f, key } : f)), "a:key");

beforeEach(() => {
  vi.useFakeTimers();
  useDesigner.getState().load("p1", "check test", layout);
});
afterEach(() => vi.useRealTimers());

describe("the draft's check after an edit", () => {
  it("comes after the edit, once for a burst of keystrokes", () => {
    const before = useDesigner.getState();
    rename("a1");
    rename("a12");
    rename("a123");
    const typed = useDesigner.getState();
    // the draft has every keystroke; what the sizes follow has not moved yet
    expect(typed.history.present.fields[0]!.key).toBe("a123");
    expect(typed.checked).toBe(before.checked);
    expect(typed.validKey).toBe(before.validKey);
    vi.runAllTimers();
    const checked = useDesigner.getState();
    expect(checked.checked).toBe(checked.history.present);
    expect(checked.valid!.fields[0]!.key).toBe("a123");
    // one new valid layout for the three keystrokes: the workers are asked once
    expect(checked.validKey).toBe(before.validKey + 1);
  });

  it("finds a problem typed into the draft, and checkNow gives it at once", () => {
    rename("b");
    expect(useDesigner.getState().issueCount).toBe(0);
    useDesigner.getState().checkNow();
    const s = useDesigner.getState();
    expect(s.issueCount).toBe(1);
    expect(s.issues.byField.has("b") || s.issues.byField.has("a")).toBe(true);
    // the sizes stay on the last valid layout
    expect(s.valid!.fields.map((f) => f.key)).toEqual(["a", "b"]);
  });
});
