// @vitest-environment happy-dom
// The Schema evolution tab on a batch layout: each wire form's verdict under the format's, and every
// finding names its form, with the batch edit told in words (the diff is the codecs' real one).
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Batch, diffLayouts, type LayoutInput, parseLayout } from "#codecs";
import { DiffView } from "./DiffView.tsx";
import { useExport, type VersionInfo } from "./exportStore.ts";

const BUOY: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Buoy",
  fields: [
    { id: "dev", key: "dev", name: "Device", type: { kind: "int", bits: 16, signed: false } },
    { id: "t", key: "t", name: "Time", type: { kind: "timestamp", encoding: "epoch", resolution: 1 } },
    {
      id: "temp",
      key: "temp",
      name: "Temperature",
      unit: "°C",
      type: { kind: "float", bits: 32, min: -40, max: 85, precision: 0.1 },
    },
  ],
  batch: {
    perReading: [{ field: "t" }, { field: "temp", maxRate: 0.005 }],
    intervalSeconds: 60,
    readings: { kind: "fixed", count: 4 },
    time: "t",
  },
};

const initial = useExport.getState();
const version = (v: number): VersionInfo =>
  ({ version: v, savedAt: "2026-11-29T09:00:00Z", fieldCount: 3, deployed: false }) as VersionInfo;

beforeEach(() => {
  const before = parseLayout(BUOY);
  const after = parseLayout({
    ...BUOY,
    batch: { ...(BUOY.batch as Batch), perReading: [{ field: "t" }, { field: "temp", maxRate: 0.01 }] },
  });
  // no base version picked: the tab shows the diff it holds without asking the host for versions
  useExport.setState({
    ...initial,
    versions: [version(1), version(2)],
    baseVersion: null,
    diff: diffLayouts(before, after),
  });
});

afterEach(() => {
  cleanup();
  useExport.setState(initial);
});

describe("Schema evolution tab: a batch change", () => {
  it("shows each wire form's verdict and the max-rate change in front of the bit-packed finding", () => {
    render(<DiffView />);
    expect(screen.getByTestId("verdict-bitpacked-old-reads-new").dataset.verdict).toBe("breaking");
    expect(screen.getByTestId("forms-bitpacked-old-reads-new").textContent).toBe(
      "columns: compatible · delta: breaking",
    );
    expect(screen.getByTestId("verdict-protobuf-old-reads-new").dataset.verdict).toBe("degraded");
    expect(screen.getByTestId("forms-protobuf-new-reads-old").textContent).toBe(
      "columns: compatible · delta: compatible",
    );
    const row = screen.getByTestId("verdict-bitpacked-old-reads-new").closest("tr")!;
    const finding = within(row)
      .getByText(/max rate 0\.005 → 0\.01 °C\/s/)
      .closest("li")!;
    expect(finding.textContent).toContain("delta form");
    expect(finding.textContent).toContain('from "temp_d" on, the bit-packed bytes moved or changed width');
    expect(screen.getByTestId("diff-changes").textContent).toContain(
      "Temperature's max rate 0.005 → 0.01 °C/s sets another difference width",
    );
  });
});
