import { describe, expect, it } from "vitest";
import type { Layout } from "#codecs";
import { dropDraft, keepDraft, readDraft } from "../src/session/drafts.ts";

/** the Web Storage interface over a Map, with an optional quota */
function memoryStorage(quota = Infinity): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => {
      if (v.length > quota) throw new DOMException("quota", "QuotaExceededError");
      m.set(k, v);
    },
  };
}

// an invalid layout (inverted range) must be kept exactly as it was typed
const invalid = {
  format: "satlayout",
  version: 1,
  name: "t",
  fields: [
    {
      id: "a",
      key: "b",
      name: "B",
      presence: "required",
      type: { kind: "int", bits: 8, signed: false, min: 50, max: 10 },
    },
  ],
} as unknown as Layout;

describe("drafts in browser storage", () => {
  it("keeps, reads back and drops a draft per project, invalid ones included", () => {
    const st = memoryStorage();
    expect(keepDraft("p1", { baseVersion: 3, at: "2026-11-24T20:00:00.000Z", layout: invalid }, st)).toBe(true);
    expect(readDraft("p1", st)).toEqual({ baseVersion: 3, at: "2026-11-24T20:00:00.000Z", layout: invalid });
    expect(readDraft("p2", st)).toBeNull();
    dropDraft("p1", st);
    expect(readDraft("p1", st)).toBeNull();
  });

  it("keeps the text held in controls with the draft, and drops held text it cannot read back", () => {
    const st = memoryStorage();
    const held = { fieldId: "a", control: "insp-max", text: "12x", message: "not a number", shape: "int|||||" };
    keepDraft("p1", { baseVersion: 3, at: "t", layout: invalid, inputs: [held] }, st);
    expect(readDraft("p1", st)?.inputs).toEqual([held]);
    st.setItem(
      "satpayload.draft.p2",
      JSON.stringify({ baseVersion: 1, at: "t", layout: invalid, inputs: [held, { fieldId: 3, text: "x" }] }),
    );
    expect(readDraft("p2", st)).toEqual({ baseVersion: 1, at: "t", layout: invalid, inputs: [held] });
  });

  it("ignores what is not a draft, and reports a full storage instead of throwing", () => {
    const st = memoryStorage(10);
    st.getItem = (k) =>
      k === "satpayload.draft.bad" ? "{not json" : k === "satpayload.draft.shape" ? '{"baseVersion":"1"}' : null;
    expect(readDraft("bad", st)).toBeNull();
    expect(readDraft("shape", st)).toBeNull();
    expect(keepDraft("p1", { baseVersion: 1, at: "x", layout: invalid }, st)).toBe(false);
    expect(keepDraft("p1", { baseVersion: 1, at: "x", layout: invalid }, null)).toBe(false);
  });
});
