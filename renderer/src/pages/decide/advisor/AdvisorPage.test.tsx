// @vitest-environment happy-dom
// The advisor never shows one format's figures as another's: after the format changes, the previous advice is
// hidden (the page says what it is recalculating, and for which inputs the hidden figures were) until the advice for
// the new format arrives; a wire-breaking plan waits for a yes. The worker here is controlled by the test; its answers
// are the real advisor's (adviseFit) for the request it got.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { kineisTrackerPreset, parseLayout, presetById } from "#codecs";
import { DEFAULT_TRACKER } from "#planning";
import { adviseFit, adviseStaged, rankByBattery } from "#planning/advisor";
import { AdvisorPage } from "./AdvisorPage.tsx";
import { setAdvisorWorker, stopAdvisor, useAdvisor } from "./advisorStore.ts";
import type { AdviseAnswer, AdviseRequest } from "./protocol.ts";
import { projectFormat } from "../../../session/projectDefaults.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { useSettings } from "../../../state/settings.ts";
import { lifeAtFor } from "../budget/budgetModel.ts";

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
  terminated = false;
  terminate(): void {
    this.terminated = true;
  }
  /** answers the latest request in the worker's two stages: the advice, then its byte-budget plan */
  answerStaged(): { budget: () => void } {
    const r = this.requests.at(-1)!;
    const staged = adviseStaged(r.layout, {
      targetBytes: r.targetBytes,
      format: r.format,
      samples: r.samples,
      seed: r.seed,
      limits: r.limits,
      deployed: r.deployed,
    });
    const post = (data: AdviseAnswer) => act(() => this.onmessage!({ data } as MessageEvent<AdviseAnswer>));
    post({ type: "result", seq: r.seq, result: staged.result, ms: 1 });
    return { budget: () => post({ type: "budget", seq: r.seq, budget: staged.budget(), ms: 2 }) };
  }
  /** answers the latest request with the real advisor's result */
  answer(): void {
    const r = this.requests.at(-1)!;
    const result = adviseFit(r.layout, {
      targetBytes: r.targetBytes,
      format: r.format,
      samples: r.samples,
      seed: r.seed,
      limits: r.limits,
      deployed: r.deployed,
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
  useAdvisor.setState({
    target: "custom",
    customBytes: 20,
    format: "struct",
    result: null,
    resultKey: null,
    confirm: null,
    positionMetres: 10,
    deployed: null,
  });
  act(() => useDesigner.getState().load("p1", "Tracker", parseLayout(kineisTrackerPreset)));
  setAdvisorWorker(() => new HeldWorker() as unknown as Worker);
});
afterEach(() => {
  cleanup();
  stopAdvisor();
  vi.useRealTimers();
});

describe("AdvisorPage", () => {
  it("hides the previous format's figures while the new format's advice is worked out", () => {
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
    expect(structNow).toMatch(/^\d+ B$/);
    // the same frame: no figure of Struct's is on screen, and the page says what it works out and what it hid
    expect(screen.queryByTestId("advisor-result")).toBeNull();
    expect(screen.queryByTestId("advisor-now")).toBeNull();
    const recalculating = screen.getByTestId("advisor-recalculating");
    expect(recalculating.getAttribute("data-format")).toBe("struct-zlib");
    expect(recalculating.textContent).toContain("Recalculating for Struct+Zlib at 20 B");
    expect(recalculating.textContent).toContain("figures worked out for Struct at 20 B are hidden");
    expect(recalculating.textContent).not.toContain(structNow!);
    expect(screen.getByTestId("advisor-state").getAttribute("data-running")).toBe("true");

    settle();
    expect(HeldWorker.last!.requests.at(-1)!.format).toBe("struct-zlib");
    expect(screen.queryByTestId("advisor-result")).toBeNull();
    HeldWorker.last!.answer();
    expect(result().getAttribute("data-format")).toBe("struct-zlib");
    expect(result().getAttribute("data-stale")).toBe("false");
    expect(result().textContent).toContain("Now (Struct+Zlib)");
    expect(screen.queryByTestId("advisor-recalculating")).toBeNull();
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
    expect(screen.queryByTestId("advisor-result")).toBeNull();
    expect(screen.getByTestId("advisor-recalculating").getAttribute("data-format")).toBe("sbe");
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
    expect(screen.queryByTestId("advisor-result")).toBeNull();
    expect(screen.getByTestId("advisor-recalculating").textContent).toContain("for the layout before the last change");
  });

  it("asks before applying a wire-breaking plan, says why, and applies nothing on Cancel", () => {
    // the tracker is 19 B bit-packed: a plan reaches 16 B, and moves bits every receiver must know of
    useAdvisor.setState({ format: "bitpacked", customBytes: 16 });
    render(<AdvisorPage />);
    settle();
    HeldWorker.last!.answer();
    expect(screen.getByTestId("advisor-plan-wire-verdict").getAttribute("data-compat")).toBe("breaking");
    const before = useDesigner.getState().history.present;
    act(() => {
      fireEvent.click(screen.getByTestId("advisor-apply-all"));
    });
    // nothing applied yet: the evolution check's reasons are shown first
    expect(useDesigner.getState().history.present).toBe(before);
    const confirm = screen.getByTestId("advisor-confirm");
    expect(confirm.textContent).toContain("The plan breaks the wire format.");
    expect(confirm.querySelectorAll("li").length).toBeGreaterThan(0);
    act(() => {
      fireEvent.click(screen.getByTestId("advisor-confirm-cancel"));
    });
    expect(screen.queryByTestId("advisor-confirm")).toBeNull();
    expect(useDesigner.getState().history.present).toBe(before);
    act(() => {
      fireEvent.click(screen.getByTestId("advisor-apply-all"));
    });
    act(() => {
      fireEvent.click(screen.getByTestId("advisor-confirm-apply"));
    });
    expect(useDesigner.getState().history.present).not.toBe(before);
    expect(useDesigner.getState().history.past.at(-1)).toBe(before);
  });

  it("checks the plan against the version marked deployed, for this project only", () => {
    const tracker = parseLayout(kineisTrackerPreset);
    // the receivers in the field were built before `seq` was added at the end
    const older = { ...tracker, fields: tracker.fields.slice(0, -1) };
    useAdvisor.setState({
      format: "struct",
      customBytes: 24,
      deployed: { projectId: "p1", version: 1, label: "Field trial", layout: older },
    });
    render(<AdvisorPage />);
    settle();
    expect(HeldWorker.last!.requests.at(-1)!.deployed?.version).toBe(1);
    HeldWorker.last!.answer();
    const note = screen.getByTestId("advisor-plan-deployed");
    expect(note.getAttribute("data-compat")).toBe("breaking");
    expect(note.textContent).toContain("Receivers built for v1 “Field trial” (deployed)");
    expect(note.textContent).toContain("seq");
    cleanup();

    // a deployed version loaded for another project is not this one's
    useAdvisor.setState({ deployed: { projectId: "p2", version: 1, label: null, layout: older }, result: null });
    render(<AdvisorPage />);
    settle();
    expect(HeldWorker.last!.requests.at(-1)!.deployed).toBeUndefined();
    HeldWorker.last!.answer();
    expect(screen.queryByTestId("advisor-plan-deployed")).toBeNull();
  });

  it("offers the format itself as a lever: the formats that fit the target as the layout is, and switches to one", () => {
    // the tracker is 19 B bit-packed and more in Struct: a 20 B target fits bit-packed without any change
    render(<AdvisorPage />);
    settle();
    HeldWorker.last!.answer();
    const lever = screen.getByTestId("advisor-formats");
    expect(lever.textContent).toContain("Without any change, the layout already fits 20 B in");
    const bits = screen.getByTestId("advisor-format-bitpacked");
    expect(bits.getAttribute("data-fits")).toBe("true");
    expect(bits.textContent).toBe("Bit-packed 19 B ✓");
    act(() => {
      fireEvent.click(bits);
    });
    expect(useAdvisor.getState().format).toBe("bitpacked");
    settle();
    expect(HeldWorker.last!.requests.at(-1)!.format).toBe("bitpacked");
  });

  it("shows the advice first and the byte-budget plan when its second stage arrives, then keeps it whole", () => {
    // the tracker at 12 B bit-packed is out of reach without leaving data out: a budget plan is worked out
    useAdvisor.setState({ format: "bitpacked", customBytes: 12 });
    render(<AdvisorPage />);
    settle();
    const first = HeldWorker.last!;
    const stage = first.answerStaged();
    expect(screen.getByTestId("advisor-partial")).toBeTruthy();
    expect(screen.getByTestId("advisor-budget-pending").textContent).toContain("working it out");
    expect(screen.queryByTestId("advisor-budget")).toBeNull();
    stage.budget();
    expect(screen.queryByTestId("advisor-budget-pending")).toBeNull();
    expect(screen.getByTestId("advisor-budget").textContent).toMatch(/leaving out .+ declared bits per message/);

    // remembered whole: back from another format, the budget is there at once, with no new request
    act(() => {
      fireEvent.change(screen.getByTestId("advisor-format"), { target: { value: "struct" } });
    });
    settle();
    HeldWorker.last!.answer();
    const asked = HeldWorker.last!.requests.length;
    act(() => {
      fireEvent.change(screen.getByTestId("advisor-format"), { target: { value: "bitpacked" } });
    });
    settle();
    expect(HeldWorker.last!.requests.length).toBe(asked);
    expect(screen.getByTestId("advisor-budget")).toBeTruthy();
  });

  it("keeps working the budget out while the user looks at remembered advice, and shows it on return", () => {
    useAdvisor.setState({ format: "struct", customBytes: 12 });
    render(<AdvisorPage />);
    settle();
    HeldWorker.last!.answer();
    const pick = (format: string) =>
      act(() => {
        fireEvent.change(screen.getByTestId("advisor-format"), { target: { value: format } });
      });
    pick("bitpacked");
    settle();
    const worker = HeldWorker.last!;
    const stage = worker.answerStaged();
    expect(screen.getByTestId("advisor-budget-pending")).toBeTruthy();
    // Struct's advice is remembered: shown at once, and the budget of bit-packed goes on in the same worker
    pick("struct");
    settle();
    expect(worker.terminated).toBe(false);
    expect(screen.queryByTestId("advisor-budget-pending")).toBeNull();
    pick("bitpacked");
    settle();
    expect(screen.getByTestId("advisor-budget-pending")).toBeTruthy();
    const asked = worker.requests.length;
    stage.budget();
    expect(worker.requests.length).toBe(asked);
    expect(screen.getByTestId("advisor-budget").textContent).toMatch(/leaving out/);
  });

  it("stops a budget still being worked out when other advice must be computed", () => {
    useAdvisor.setState({ format: "bitpacked", customBytes: 12 });
    render(<AdvisorPage />);
    settle();
    const first = HeldWorker.last!;
    first.answerStaged();
    expect(screen.getByTestId("advisor-budget-pending")).toBeTruthy();
    // another target: the worker busy with the budget is replaced, not queued behind
    act(() => {
      useAdvisor.setState({ customBytes: 13 });
    });
    settle();
    expect(first.terminated).toBe(true);
    expect(HeldWorker.last).not.toBe(first);
    expect(HeldWorker.last!.requests.at(-1)!.targetBytes).toBe(13);
  });

  it("makes the format chosen here the project's format on the pages that send it", () => {
    localStorage.clear();
    render(<AdvisorPage />);
    act(() => {
      fireEvent.change(screen.getByTestId("advisor-format"), { target: { value: "sbe" } });
    });
    expect(projectFormat("p1")).toBe("sbe");
    expect(projectFormat("another project")).not.toBe("sbe");
  });

  it("asks for advice with the position precision the user types (10 m until then)", () => {
    render(<AdvisorPage />);
    settle();
    const w = HeldWorker.last!;
    expect(w.requests.at(-1)!.limits.positionMetres).toBe(10);
    w.answer();
    act(() => {
      fireEvent.change(screen.getByTestId("advisor-position-m"), { target: { value: "6000" } });
    });
    settle();
    expect(w.requests.at(-1)!.limits.positionMetres).toBe(6000);
    // the advice on screen was for 10 m: hidden until the new answer is in
    expect(screen.queryByTestId("advisor-result")).toBeNull();
    w.answer();
    expect(result().getAttribute("data-stale")).toBe("false");
  });
});

describe("AdvisorPage, battery life as the objective (issue #28)", () => {
  it("ranks the suggestions by battery life gained on the target's radio, and says when the target has none", () => {
    // the paper in Protobuf on Astrocast: 139 B take 9 fragments; a change to 129 B or less saves one (docs/budget.md)
    useAdvisor.setState({ target: "astrocast", format: "protobuf" });
    act(() => useDesigner.getState().load("p1", "Paper", parseLayout(presetById("paper")!.layout)));
    render(<AdvisorPage />);
    settle();
    HeldWorker.last!.answer();
    const order = () =>
      screen.getAllByTestId(/^suggestion-/).map((row) => row.getAttribute("data-testid")!.replace("suggestion-", ""));
    const bytesOrder = order();
    expect(screen.queryAllByTestId(/^battery-/)).toHaveLength(0);

    act(() => fireEvent.click(screen.getByTestId("advisor-objective-battery")));
    // the default tracker every 6 h (no scenario loaded: 4 messages a day)
    const r = useAdvisor.getState().result!;
    const lifeAt = lifeAtFor("astrocast", { intervalMinutes: 360 }, DEFAULT_TRACKER)!;
    const ranked = rankByBattery(r.suggestions, r.base.mean, lifeAt);
    expect(order()).toEqual(ranked.map((s) => `${s.fieldId}${s.transform.kind === "short-key" ? "-key" : ""}`));
    expect(order().slice().sort()).toEqual(bytesOrder.slice().sort());
    expect(screen.getByTestId("advisor-ranking").textContent).toMatch(
      /^ranked by battery life gained on Astrocast \(Astronode S\) \(160 B\)/,
    );
    const cells = screen.getAllByTestId(/^battery-/);
    expect(cells).toHaveLength(ranked.length);
    // a change that saves a fragment gains months; one that saves a byte or two within the 9th fragment, nothing
    expect(cells[0]!.textContent).toMatch(/^\+\d+(\.\d)? (months|years)$/);
    expect(Number(cells[0]!.getAttribute("data-value"))).toBeCloseTo(ranked[0]!.gainYears!, 12);
    expect(cells.at(-1)!.textContent).toBe("none");

    // a byte budget of your own has no radio: the bytes order, and the page says why
    act(() => useAdvisor.setState({ target: "custom" }));
    settle();
    HeldWorker.last!.answer();
    expect(screen.getByTestId("advisor-no-radio").textContent).toMatch(/needs the target's radio/);
    expect(screen.queryAllByTestId(/^battery-/)).toHaveLength(0);
  });
});
