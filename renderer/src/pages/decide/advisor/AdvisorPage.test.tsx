// @vitest-environment happy-dom
// The advisor never shows one format's figures as another's: after the format changes, the previous advice stays
// on screen marked as updating, under its own format's name, until the advice for the new format arrives. The
// worker here is controlled by the test; its answers are the real advisor's (adviseFit) for the request it got.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { kineisTrackerPreset, parseLayout } from "#codecs";
import { adviseFit } from "#planning/advisor";
import { AdvisorPage } from "./AdvisorPage.tsx";
import { setAdvisorWorker, stopAdvisor, useAdvisor } from "./advisorStore.ts";
import type { AdviseAnswer, AdviseRequest } from "./protocol.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { useSettings } from "../../../state/settings.ts";

/** A worker that holds each request until the test answers it. */
class HeldWorker {
  static last: HeldWorker | null = null;
  requests: AdviseRequest[] = [];
  onmessage: ((ev: MessageEvent<AdviseAnswer>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  constructor() {
    HeldWorker.last = this;
  }
  postMessage(req: AdviseRequest): void {
    this.requests.push(req);
  }
  terminate(): void {}
  /** answers the latest request with the real advisor's result */
  answer(): void {
    const r = this.requests.at(-1)!;
    const result = adviseFit(r.layout, {
      targetBytes: r.targetBytes,
      format: r.format,
      samples: r.samples,
      seed: r.seed,
      limits: r.limits,
    });
    act(() => this.onmessage!({ data: { type: "result", seq: r.seq, result, ms: 1 } } as MessageEvent<AdviseAnswer>));
  }
}

const result = () => screen.getByTestId("advisor-result");
/** lets the advisor's 250 ms settle time pass, so the request goes out */
const settle = () => act(() => vi.advanceTimersByTime(300));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  useSettings.setState({ samples: 50, seed: 1 });
  useAdvisor.setState({ target: "custom", customBytes: 20, format: "struct", result: null, resultKey: null });
  act(() => useDesigner.getState().load("p1", "Tracker", parseLayout(kineisTrackerPreset)));
  setAdvisorWorker(() => new HeldWorker() as unknown as Worker);
});
afterEach(() => {
  cleanup();
  stopAdvisor();
  vi.useRealTimers();
});

describe("AdvisorPage", () => {
  it("keeps the previous format's advice marked as updating, under its own name, until the new one is in", () => {
    render(<AdvisorPage />);
    settle();
    HeldWorker.last!.answer();
    expect(result().getAttribute("data-format")).toBe("struct");
    expect(result().getAttribute("data-stale")).toBe("false");
    expect(screen.getByTestId("advisor-state").getAttribute("data-running")).toBe("false");
    const structNow = screen.getByTestId("advisor-now").textContent;

    act(() => {
      fireEvent.change(screen.getByTestId("advisor-format"), { target: { value: "struct-zlib" } });
    });
    // the same frame: the old figures are marked, still named Struct, and the page says it is working
    expect(result().getAttribute("data-stale")).toBe("true");
    expect(result().getAttribute("data-format")).toBe("struct");
    expect(result().textContent).toContain("Now (Struct)");
    expect(result().textContent).not.toContain("Now (Struct+Zlib)");
    expect(screen.getByTestId("advisor-updating").textContent).toContain("not yet for Struct+Zlib");
    expect(screen.getByTestId("advisor-state").getAttribute("data-running")).toBe("true");
    expect(screen.getByTestId("advisor-now").textContent).toBe(structNow);

    settle();
    expect(HeldWorker.last!.requests.at(-1)!.format).toBe("struct-zlib");
    expect(result().getAttribute("data-stale")).toBe("true");
    HeldWorker.last!.answer();
    expect(result().getAttribute("data-format")).toBe("struct-zlib");
    expect(result().getAttribute("data-stale")).toBe("false");
    expect(result().textContent).toContain("Now (Struct+Zlib)");
    expect(screen.queryByTestId("advisor-updating")).toBeNull();
  });

  it("works out the next formats' advice while the page is idle: choosing one shows it at once, or takes over its run", () => {
    render(<AdvisorPage />);
    settle();
    const w = HeldWorker.last!;
    w.answer();
    // left alone a moment: the next format in the list is asked for, the page still shows Struct's advice, not running
    act(() => vi.advanceTimersByTime(500));
    expect(w.requests.at(-1)!.format).toBe("struct-zlib");
    expect(screen.getByTestId("advisor-state").getAttribute("data-running")).toBe("false");
    expect(result().getAttribute("data-format")).toBe("struct");
    w.answer();
    act(() => vi.advanceTimersByTime(500));
    // SBE's run is under way when the person picks SBE: it becomes their request, nothing starts again
    expect(w.requests.at(-1)!.format).toBe("sbe");
    const asked = w.requests.length;
    act(() => {
      fireEvent.change(screen.getByTestId("advisor-format"), { target: { value: "sbe" } });
    });
    expect(result().getAttribute("data-stale")).toBe("true");
    expect(screen.getByTestId("advisor-state").getAttribute("data-running")).toBe("true");
    w.answer();
    expect(w.requests.length).toBe(asked);
    expect(result().getAttribute("data-format")).toBe("sbe");
    expect(result().getAttribute("data-stale")).toBe("false");
    // Struct+Zlib was worked out ahead: shown at once, for the layout on screen, with no new request
    act(() => {
      fireEvent.change(screen.getByTestId("advisor-format"), { target: { value: "struct-zlib" } });
    });
    expect(result().getAttribute("data-format")).toBe("struct-zlib");
    expect(result().getAttribute("data-stale")).toBe("false");
    expect(w.requests.filter((r) => r.format === "struct-zlib")).toHaveLength(1);
    // an edit of the layout: what was worked out for the old one is not shown as the new one's
    act(() => useDesigner.getState().editFields((fs) => fs.slice(1)));
    act(() => useDesigner.getState().checkNow());
    expect(result().getAttribute("data-stale")).toBe("true");
  });
});
