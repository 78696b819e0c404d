// The batch edits (issue #27): a batch set up from the layout is one the layout accepts, per-reading fields keep
// layout order, and the optional settings come and go without leaving an undefined key behind.
import { describe, expect, it } from "vitest";
import { checkLayout, paperPreset, parseLayout } from "#codecs";
import { duration, movingFields, setMaxRate, setOptional, setPerReading, suggestBatch, withBatch } from "./batch.ts";

const paper = parseLayout(paperPreset);

describe("a batch set up from the layout", () => {
  it("repeats the paper's moving numbers per reading and sends its ids, states and constants once", () => {
    const moving = movingFields(paper).map((f) => f.id);
    for (const id of ["latitude", "longitude", "temperature", "speed", "acc"]) expect(moving).toContain(id);
    // text, a constant and states drawn from a list do not move like a measurement
    for (const id of ["msisdn", "iso6346", "cgi", "door"]) expect(moving).not.toContain(id);
  });

  it("is a batch the layout accepts, filling the platform it was given", () => {
    const batch = suggestBatch(paper, "astrocast");
    expect(batch.readings).toEqual({ kind: "fit", platform: "astrocast" });
    expect(batch.intervalSeconds).toBe(900);
    const res = checkLayout(withBatch(paper, batch));
    expect(res.ok ? [] : res.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([]);
  });

  it("falls back to a fixed count when no chosen platform has a limit", () => {
    expect(suggestBatch(paper, null).readings).toEqual({ kind: "fixed", count: 10 });
  });
});

describe("batch edits", () => {
  const batch = suggestBatch(paper, null);

  it("keeps per-reading fields in layout order and drops the time with its field", () => {
    const without = setPerReading(paper, batch, "latitude", false);
    expect(without.perReading.some((p) => p.field === "latitude")).toBe(false);
    const back = setPerReading(paper, without, "latitude", true);
    expect(back.perReading.map((p) => p.field)).toEqual(batch.perReading.map((p) => p.field));
    const timed = { ...batch, time: "latitude" };
    expect("time" in setPerReading(paper, timed, "latitude", false)).toBe(false);
  });

  it("sets and clears a max rate and an optional setting without leaving the key behind", () => {
    const rated = setMaxRate(batch, "speed", 0.5);
    expect(rated.perReading.find((p) => p.field === "speed")).toEqual({ field: "speed", maxRate: 0.5 });
    expect(setMaxRate(rated, "speed", undefined).perReading.find((p) => p.field === "speed")).toEqual({
      field: "speed",
    });
    const keyed = setOptional(batch, "keyframeEvery", 4);
    expect(keyed.keyframeEvery).toBe(4);
    expect("keyframeEvery" in setOptional(keyed, "keyframeEvery", undefined)).toBe(false);
    expect("batch" in withBatch(withBatch(paper, batch), undefined)).toBe(false);
  });

  it("says a wait in the unit people use", () => {
    expect([45, 900, 9000, 3 * 86400].map(duration)).toEqual(["45 s", "15 min", "2.5 h", "3 days"]);
  });
});
