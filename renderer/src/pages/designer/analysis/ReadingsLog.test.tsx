// @vitest-environment happy-dom
// The "Size on my log…" strip: which readings the figures are of only once the workers answered for this very file,
// a bad log's problems with the first few listed and the rest counted, and the way back to generated series.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LogProblem } from "#codecs";
import { PROBLEMS_SHOWN, ReadingsLog } from "./ReadingsLog.tsx";
import type { BatchView } from "../../../state/analysis.ts";
import { useReadingsLog } from "../../../state/readingsLog.ts";
import type { LogSummary } from "../../../worker/protocol.ts";

const viewFor = (logId: number, log: LogSummary): BatchView => ({
  layoutKey: 1,
  seed: 1,
  ask: `astrocast:160|log${logId}`,
  pending: [],
  items: [
    {
      format: "cbor",
      forms: [{ form: "delta", readings: 0, stats: null, fits: {}, fields: [], framing: 0, error: "x", log }],
    },
  ],
});

describe("ReadingsLog", () => {
  beforeEach(() => useReadingsLog.setState({ log: null }));
  afterEach(cleanup);

  it("labels the figures with the log only when they are of this file, lists problems, and goes back", () => {
    act(() => useReadingsLog.getState().choose("track.csv", "time,lat\n"));
    const id = useReadingsLog.getState().log!.id;
    const good = viewFor(id, { readings: 296, problems: [], problemsNotListed: 0 });
    // figures of an earlier file (another id) are not this log's
    const { rerender } = render(<ReadingsLog view={viewFor(id - 1, good.items[0]!.forms[0]!.log!)} />);
    expect(screen.getByTestId("readings-log-label").textContent).toMatch(/^Reading your log track\.csv/);
    rerender(<ReadingsLog view={good} />);
    expect(screen.getByTestId("readings-log-label").textContent).toMatch(/^Your log: 296 readings, track\.csv/);

    const problems: LogProblem[] = Array.from({ length: 12 }, (_, i) => ({
      line: i + 2,
      field: "lat",
      message: "is not a number",
    }));
    rerender(<ReadingsLog view={viewFor(id, { readings: 0, problems, problemsNotListed: 5 })} />);
    const list = screen.getByTestId("readings-log-problems");
    expect(list.querySelectorAll("li")).toHaveLength(PROBLEMS_SHOWN);
    expect(list.querySelector("li")!.textContent).toBe("line 2, lat: is not a number");
    expect(list.textContent).toContain(`… and ${12 - PROBLEMS_SHOWN + 5} more.`);

    fireEvent.click(screen.getByTestId("readings-log-clear"));
    expect(useReadingsLog.getState().log).toBeNull();
    expect(screen.queryByTestId("readings-log-label")).toBeNull();
    expect(screen.getByTestId("readings-log-choose").textContent).toBe("Size on my log…");
  });
});
