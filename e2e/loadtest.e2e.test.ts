// The Load Test page end to end: the real browser-mode host starts runs against a local stack
// (embedded CSE + decoder processes); the page shows progress and live charts, then the result in
// history, compares runs, exports CSV and cancels a run.
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSV_COLUMNS } from "#contracts/loadtest/table.ts";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { tid, waitForStackRunning } from "./support/ui.ts";

let s: E2eSession;

beforeAll(async () => {
  s = await startSession();
}, 300_000);

afterAll(async () => {
  await s?.close();
});

async function configure(
  page: Page,
  o: { format: string; devices: number; duration: number; replicas?: number },
): Promise<void> {
  await page.selectOption(tid("lt-format"), o.format);
  await page.fill(tid("lt-devices"), String(o.devices));
  await page.fill(tid("lt-spawn-rate"), "100");
  await page.selectOption(tid("lt-wait-kind"), "uniform");
  await page.fill(tid("lt-wait-a"), "0.1");
  await page.fill(tid("lt-wait-b"), "0.3");
  await page.fill(tid("lt-duration"), String(o.duration));
  await page.fill(tid("lt-warmup"), "1");
  await page.selectOption(tid("lt-target"), "local");
  await page.fill(tid("lt-replicas"), String(o.replicas ?? 1));
}

/** Waits until the history's newest row has left "running"; returns its status. */
async function newestFinished(page: Page, timeout = 120_000): Promise<string> {
  await page.waitForFunction(
    () => {
      const row = document.querySelector('[data-testid="lt-history-row"]');
      return !!row && row.getAttribute("data-status") !== "running";
    },
    null,
    { timeout },
  );
  return (await page.locator(tid("lt-history-row")).first().getAttribute("data-status")) ?? "";
}

describe("load test page (browser mode)", SCENARIO, () => {
  it("runs a fleet against the local stack with progress and live charts, then keeps the result", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.waitForSelector(tid("nav-loadtest"));
    await page.click(tid("nav-loadtest"));
    await page.waitForSelector(tid("loadtest-page"));
    await page.waitForSelector(tid("lt-history-empty"));
    expect(await page.locator(tid("lt-history-empty")).textContent()).toContain("No load tests yet");
    await page.waitForSelector(tid("lt-run-empty"));
    await screenshot(page, "loadtest-00-empty");

    // bad values are marked where they are typed, and Start says why it cannot start
    await page.fill(tid("lt-devices"), "-5");
    await page.fill(tid("lt-duration"), "0");
    await page.fill(tid("lt-wait-a"), "5");
    await page.fill(tid("lt-wait-b"), "1");
    expect(await page.locator(tid("lt-devices-issue")).textContent()).toBe("must be at least 1");
    expect(await page.locator(tid("lt-duration-issue")).textContent()).toBe("must be more than 0");
    expect(await page.locator(tid("lt-wait-issue")).textContent()).toBe("must be at least the lower bound (5 s)");
    for (const input of ["lt-devices", "lt-duration", "lt-wait-b"])
      expect(await page.locator(tid(input)).getAttribute("aria-invalid"), input).toBe("true");
    expect(await page.locator(tid("lt-wait-a")).getAttribute("aria-invalid")).toBeNull();
    expect(await page.locator(tid("lt-start")).isDisabled()).toBe(true);
    expect(await page.locator(tid("lt-start-blocked")).textContent()).toBe(
      "Fix 3 fields to start: devices, wait upper bound, duration.",
    );
    await screenshot(page, "loadtest-00b-invalid-form");
    await page.fill(tid("lt-devices"), "5");
    await page.fill(tid("lt-duration"), "3");
    await page.fill(tid("lt-wait-b"), "6");
    expect(await page.locator(tid("lt-start")).isDisabled()).toBe(false);
    expect(await page.locator(".lt-issue").count()).toBe(0);

    await configure(page, { format: "protobuf", devices: 30, duration: 8 });
    await page.click(tid("lt-start"));
    await page.waitForSelector(tid("lt-progress"));
    // live: several seconds of traffic drawn while the run goes on
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="lt-run"] .lt-charts')?.getAttribute("data-points") ?? 0) >= 4,
      null,
      { timeout: 90_000 },
    );
    const phase = await page.locator(tid("lt-phase")).getAttribute("data-phase");
    expect(["ramp", "warmup", "measure"]).toContain(phase);
    expect(Number(await page.locator(tid("lt-progress")).getAttribute("aria-valuenow"))).toBeGreaterThan(0);
    expect(
      Number(
        await page
          .locator(tid("lt-live-sent"))
          .textContent()
          .then((t) => (t ?? "0").replace(/,/g, "")),
      ),
    ).toBeGreaterThan(0);
    expect(await page.locator(`${tid("lt-run")} .recharts-line`).count()).toBeGreaterThanOrEqual(2);
    await page
      .locator(tid("nav-loadtest"))
      .getAttribute("aria-current")
      .then((v) => expect(v).toBe("page"));
    await screenshot(page, "loadtest-01-running");

    expect(await newestFinished(page)).toBe("completed");
    await page.waitForSelector(`${tid("lt-result-status")}[data-status="completed"]`, { timeout: 30_000 });
    // a throughput was measured and shown; its speed is not asserted (a busy machine lowers it), and that
    // it is the run's own count over its window is proven in host/loadtest/loadtest.test.ts
    expect(Number(await page.locator(tid("lt-result-rps")).textContent())).toBeGreaterThan(0);
    expect(await page.locator(tid("lt-result-failures")).textContent()).toBe("0");
    expect(await page.locator(tid("lt-failure-kinds")).textContent()).toBe("none");
    await page.waitForSelector(tid("lt-e2e"));
    await page.waitForSelector(tid("lt-run-empty"));
    await screenshot(page, "loadtest-02-result");
    expect(errors).toEqual([]);
  }, 240_000);

  it("compares runs side by side, exports CSV and cancels a run", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.click(tid("nav-loadtest"));
    await page.waitForSelector(tid("lt-history-row"));
    await configure(page, { format: "struct-zlib", devices: 30, duration: 4, replicas: 2 });
    await page.click(tid("lt-start"));
    expect(await newestFinished(page)).toBe("completed");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="lt-history-row"]').length === 2);

    const picks = page.locator(tid("lt-pick"));
    await picks.nth(0).check();
    await picks.nth(1).check();
    await page.click(tid("lt-compare"));
    await page.waitForSelector(tid("lt-compare-table"));
    const heads = await page.locator(`${tid("lt-compare-table")} thead th`).count();
    expect(heads).toBe(3);
    const formats = await page
      .locator(`${tid("lt-compare-table")} tbody tr`)
      .first()
      .locator("td")
      .allTextContents();
    expect(formats).toEqual(["Struct+Zlib", "Protocol Buffers"]);
    // what each run sent, in bytes: the pools' own sizes, as the result recorded them
    const runs = (await s.server.host.dispatch("loadtest.compare", {
      ids: [
        await picks.nth(0).evaluate((e) => e.closest("tr")!.getAttribute("data-id")),
        await picks.nth(1).evaluate((e) => e.closest("tr")!.getAttribute("data-id")),
      ],
    })) as { result: { payloadBytes: { mean: number } } }[];
    expect(await page.locator(`${tid("lt-compare-row-payload-mean")} td`).allTextContents()).toEqual(
      runs.map((r) => `${r.result.payloadBytes.mean.toFixed(1)} B`),
    );
    await screenshot(page, "loadtest-03-compare");

    const [download] = await Promise.all([page.waitForEvent("download"), page.click(tid("lt-export-csv"))]);
    const csv = (await readFile((await download.path())!, "utf8")).trim().split("\n");
    expect(csv[0]).toBe(CSV_COLUMNS.join(","));
    expect(csv).toHaveLength(3);
    expect(download.suggestedFilename()).toMatch(/^loadtests-\d+\.csv$/);

    // a long run, cancelled once it has started sending
    await configure(page, { format: "cbor", devices: 10, duration: 120 });
    await page.click(tid("lt-start"));
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="lt-run"] .lt-charts')?.getAttribute("data-points") ?? 0) >= 1,
      null,
      { timeout: 90_000 },
    );
    await page.click(tid("lt-cancel"));
    expect(await newestFinished(page, 60_000)).toBe("cancelled");

    // the same page in the dark theme
    await page.click(tid("theme-toggle"));
    await page.locator(tid("lt-open")).nth(1).click();
    await page.waitForSelector(`${tid("lt-result-status")}[data-status="completed"]`);
    await screenshot(page, "loadtest-04-dark");

    // the FoM table: Table 6 of the paper, none of its cells run here (these runs were not its workload)
    await page.locator(tid("lt-fom")).scrollIntoViewIfNeeded();
    expect(await page.locator(tid("lt-fom-row")).count()).toBe(10);
    expect(await page.locator(`${tid("lt-fom-row")}[data-has-ours="true"]`).count()).toBe(0);
    // a run the generator limited (a busy machine) has no FoM to show, only the warning
    const pb = (
      (await s.server.host.dispatch("loadtest.history", { limit: 10 })) as {
        format: string;
        devices: number;
        valid: boolean | null;
        fom: number;
      }[]
    ).find((h) => h.format === "protobuf" && h.devices === 30)!;
    expect(await page.locator(tid("lt-fom-others")).textContent()).toContain(
      `Protocol Buffers 30 → ${pb.valid === false ? "not valid (client-limited)" : Math.round(pb.fom).toLocaleString("en-US")}`,
    );
    await screenshot(page, "loadtest-05-fom-dark");
    expect(errors).toEqual([]);
  }, 300_000);

  it("sends to the stack the Stack page runs, says so, and the Stack page counts the records", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.click(tid("nav-stack"));
    await page.waitForSelector(tid("stack-empty"));
    await page.click(tid("stack-start"));
    await waitForStackRunning(page);
    const before = ((await s.server.host.dispatch("stack.stats", {})) as { records: number } | null)?.records ?? 0;

    await page.click(tid("nav-loadtest"));
    await page.waitForSelector(tid("loadtest-page"));
    // a running stack is the target unless the user picks another
    await expect.poll(() => page.locator(tid("lt-target")).inputValue()).toBe("stack");
    expect(await page.locator(tid("lt-target-stack")).textContent()).toMatch(
      /^1 replica\(s\) at 127\.0\.0\.1:\d+: its records show on the Stack page$/,
    );
    await page.selectOption(tid("lt-format"), "cbor");
    await page.fill(tid("lt-devices"), "5");
    await page.fill(tid("lt-spawn-rate"), "100");
    await page.fill(tid("lt-wait-a"), "0.1");
    await page.fill(tid("lt-wait-b"), "0.3");
    await page.fill(tid("lt-duration"), "3");
    await page.fill(tid("lt-warmup"), "1");
    await page.click(tid("lt-start"));
    expect(await newestFinished(page)).toBe("completed");
    const row = page.locator(tid("lt-history-row")).first();
    expect(await row.textContent()).toMatch(/running stack × 1 at 127\.0\.0\.1:\d+/);
    const run = (await s.server.host.dispatch("loadtest.get", { id: await row.getAttribute("data-id") })) as {
      result: { requests: { succeeded: number } };
    };
    expect(run.result.requests.succeeded).toBeGreaterThan(0);
    await page.waitForSelector(`${tid("lt-result-status")}[data-status="completed"]`, { timeout: 30_000 });
    await screenshot(page, "loadtest-06-running-stack");

    // the Stack page's own numbers include the run (and its one priming message)
    await page.click(tid("nav-stack"));
    const expected = String(before + run.result.requests.succeeded + 1);
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="kpi-records"]')?.getAttribute("data-value") === n,
      expected,
      { timeout: 30_000 },
    );
    await screenshot(page, "loadtest-07-stack-counts-the-run");
    await page.click(tid("stack-stop"));
    await page.waitForSelector(`${tid("stack-state")}[data-state="stopped"]`, { timeout: 60_000 });
    expect(errors).toEqual([]);
  }, 300_000);
});
