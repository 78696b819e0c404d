import { describe, expect, it } from "vitest";
import { initHistory, MERGE_WINDOW_MS, record, redo, undo } from "../src/state/history.ts";

describe("undo history", () => {
  it("undoes and redoes in order, and a new edit clears the redo branch", () => {
    let h = initHistory("a");
    h = record(h, "b", null, 0);
    h = record(h, "c", null, 10);
    h = undo(h);
    expect(h.present).toBe("b");
    h = undo(h);
    expect(h.present).toBe("a");
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present).toBe("b");
    h = record(h, "x", null, 20);
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
    expect(h.past).toEqual(["a", "b"]);
  });

  it("merges keystrokes into one control within the window, not across controls or after it", () => {
    let h = initHistory("");
    h = record(h, "h", "name", 0);
    h = record(h, "he", "name", 100);
    h = record(h, "hel", "name", 200);
    expect(h.past).toEqual([""]);
    h = record(h, "hel!", "key", 250);
    expect(h.past).toEqual(["", "hel"]);
    h = record(h, "hel!?", "key", 250 + MERGE_WINDOW_MS + 1);
    expect(h.past).toEqual(["", "hel", "hel!"]);
    // after an undo the next keystroke starts a new step
    h = undo(h);
    h = record(h, "other", "key", 260 + MERGE_WINDOW_MS);
    expect(h.past).toEqual(["", "hel", "hel!"]);
  });

  it("ignores a no-op edit", () => {
    const h = initHistory("a");
    expect(record(h, "a", null, 0)).toBe(h);
  });
});
