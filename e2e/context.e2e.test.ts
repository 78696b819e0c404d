// Pages keep the user's context (issue #26, points 7 and 8) end to end: a tracker built from scratch with
// the position entry, then Load test on the project's layout and chosen format with the inputs
// remembered across visits and a reload, Channel's fleet from the cost scenario, and one way back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultScenario } from "#planning";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { tid } from "./support/ui.ts";

let s: E2eSession;

beforeAll(async () => {
  s = await startSession();
}, 300_000);

afterAll(async () => {
  await s?.close();
});

describe("pages keep the user's context (browser mode)", SCENARIO, () => {
  it("takes the project's layout, format and fleet, remembers the load test, and says one way back", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.waitForSelector(tid("start-screen"));
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("tree-empty"));
    const projectId = new URL(page.url()).searchParams.get("project")!;
    expect(projectId).toBeTruthy();

    // a position from the palette: latitude and longitude at 10 m, the step shown on the ground
    await page.click(tid("palette-position"));
    await page.waitForSelector(tid("row-longitude"));
    await page.click(tid("row-latitude"));
    expect(await page.locator(tid("insp-position-precision")).inputValue()).toBe("10");
    expect(await page.locator(tid("insp-scale")).inputValue()).toBe("0.000089");
    await screenshot(page, "context-00-position-1440");
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, "context-00-position-1024");
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.click(tid("palette-enum"));
    await page.waitForSelector(tid("enum-name-prompt"));
    await screenshot(page, "context-01-designer-1440");
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, "context-01-designer-1024");
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await page.locator(tid("home")).textContent()).toContain("← Projects");

    // the cost scenario the user planned: 5 000 devices × 24 a day
    const scenario = {
      ...defaultScenario("Trackers"),
      devices: 5000,
      cadence: { kind: "per-day", messagesPerDay: 24 },
    };
    await s.server.host.dispatch("costs.save", { projectId, doc: { version: 1, active: 0, scenarios: [scenario] } });

    // Load test opens on this project's layout; what the user sets is there on the next visit and after a reload
    await page.click(tid("nav-loadtest"));
    await page.waitForSelector(tid("loadtest-page"));
    expect(await page.locator(tid("lt-layout")).inputValue()).toBe(`project:${projectId}`);
    expect(await page.locator(tid("lt-back")).textContent()).toContain("← Designer");
    await page.selectOption(tid("lt-format"), "struct-zlib");
    await page.fill(tid("lt-duration"), "75");
    await screenshot(page, "context-02-loadtest-1440");
    await page.click(tid("lt-back"));
    await page.waitForSelector(tid("designer"));
    await page.click(tid("nav-loadtest"));
    await page.waitForSelector(tid("loadtest-page"));
    expect(await page.locator(tid("lt-duration")).inputValue()).toBe("75");
    expect(await page.locator(tid("lt-format")).inputValue()).toBe("struct-zlib");
    await page.reload();
    await page.waitForSelector(tid("loadtest-page"));
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('[data-testid="lt-duration"]')?.value === "75",
    );
    expect(await page.locator(tid("lt-format")).inputValue()).toBe("struct-zlib");
    expect(await page.locator(tid("lt-layout")).inputValue()).toBe(`project:${projectId}`);
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, "context-02-loadtest-1024");
    await page.setViewportSize({ width: 1440, height: 900 });

    // Channel's fleet is the cost scenario's, in the format chosen on the load test
    await page.click(tid("nav-channel"));
    await page.click(tid("ch-scenario-fleet"));
    await page.waitForSelector(tid("ch-fleet-from"));
    expect(await page.locator(tid("ch-devices")).inputValue()).toBe("5000");
    expect(await page.locator(tid("ch-perDay")).inputValue()).toBe("24");
    expect(await page.locator(tid("ch-format")).inputValue()).toBe("struct-zlib");
    expect(await page.locator(tid("ch-fleet-from")).textContent()).toContain("“Trackers”");
    await screenshot(page, "context-03-channel-1440");
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, "context-03-channel-1024");
    await page.setViewportSize({ width: 1440, height: 900 });

    // DevKit Send and the Stack page: the same format, the same way back
    await page.click(tid("nav-bench"));
    await page.waitForSelector(tid("send-format"));
    expect(await page.locator(tid("send-format")).inputValue()).toBe("struct-zlib");
    expect(await page.locator(tid("bench-back")).textContent()).toContain("← Designer");
    await page.click(tid("nav-stack"));
    await page.waitForSelector(tid("stack-back"));
    expect(await page.locator(tid("stack-back")).textContent()).toContain("← Designer");
    await screenshot(page, "context-04-stack-1440");
    expect(errors).toEqual([]);
  });
});
