// @vitest-environment happy-dom
// The Stack page's card of values stored beyond their layout: counted per field from the decoder's
// stats (as the host's schema passes them on), with an empty state while nothing went beyond.
import { cleanup, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { stackStatsSchema } from "#host/api/stack.ts";
import { FlaggedCard } from "../src/pages/stack/FlaggedCard.tsx";

const stats = (flagged?: unknown) =>
  stackStatsSchema.parse({
    at: 1,
    records: 500,
    duplicates: 0,
    rejected: 0,
    deadLetters: 0,
    uniqueDevices: 40,
    successRate: 1,
    meanCompressionRatio: 1.4,
    delivered: 500,
    pending: 0,
    refused: 0,
    conflictsVerified: 0,
    repairs: 0,
    forwarded: 500,
    backlog: 0,
    forwardFailures: 0,
    containers: [],
    buffers: [],
    ...(flagged ? { flagged } : {}),
  });

afterEach(cleanup);

describe("Stack page: values beyond the layout", () => {
  it("lists each flagged field with its count, as the decoder's stats give them", () => {
    const s = stats({
      records: 498,
      fields: [
        { field: "latitude", kind: "precision", count: 496 },
        { field: "longitude", kind: "precision", count: 490 },
      ],
    });
    render(createElement(FlaggedCard, { stats: s }));
    const rows = screen.getAllByTestId("stack-flagged-field");
    expect(rows.map((r) => [r.dataset.field, r.dataset.kind, r.querySelector(".num")?.textContent])).toEqual([
      ["latitude", "precision", "496"],
      ["longitude", "precision", "490"],
    ]);
    expect(screen.getByTestId("stack-flagged").textContent).toContain("498 of 500 records, stored as sent");
  });

  it("says so when nothing went beyond, and waits for numbers from an older decoder", () => {
    render(createElement(FlaggedCard, { stats: stats({ records: 0, fields: [] }) }));
    expect(screen.getByTestId("stack-flagged").textContent).toContain("No value beyond its layout so far");
    cleanup();
    render(createElement(FlaggedCard, { stats: stats() }));
    expect(screen.getByTestId("stack-flagged").textContent).toContain("Waiting for the decoder");
  });
});
