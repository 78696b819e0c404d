// The Load Test page's transport selector: what a target cannot serve is refused next to the
// Transport select, and a short MQTT run from the form reaches the decoder with as many records
// stored as PUBACKs received; the result and the history say the run went over MQTT.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { tid } from "./support/ui.ts";

let s: E2eSession;

beforeAll(async () => {
  s = await startSession();
}, 300_000);

afterAll(async () => {
  await s?.close();
});

async function shortFleet(page: Page): Promise<void> {
  await page.selectOption(tid("lt-format"), "protobuf");
  await page.fill(tid("lt-devices"), "10");
  await page.fill(tid("lt-spawn-rate"), "100");
  await page.selectOption(tid("lt-wait-kind"), "uniform");
  await page.fill(tid("lt-wait-a"), "0.1");
  await page.fill(tid("lt-wait-b"), "0.3");
  await page.fill(tid("lt-duration"), "4");
  await page.fill(tid("lt-warmup"), "1");
}

/** Waits until the history's newest row has left "running"; returns its status. */
async function newestFinished(page: Page, timeout = 150_000): Promise<string> {
  await page.waitForFunction(() => {
    const row = document.querySelector('[data-testid="lt-history-row"]');
    return !!row && row.getAttribute("data-status") !== "running";
  }, null, { timeout });
  return (await page.locator(tid("lt-history-row")).first().getAttribute("data-status")) ?? "";
}

const count = async (page: Page, id: string) => Number((await page.locator(tid(id)).textContent())!.replace(/[^\d]/g, ""));

describe("load test transports (browser mode)", () => {
  it("refuses what the target cannot serve next to the field, then runs an MQTT fleet whose PUBACKs all are stored", { timeout: 300_000 }, async () => {
    const { page, errors } = await s.open({ width: 1440, height: 1000 });
    await page.waitForSelector(tid("nav-loadtest"));
    await page.click(tid("nav-loadtest"));
    await page.waitForSelector(tid("loadtest-page"));
    await shortFleet(page);

    await page.selectOption(tid("lt-target"), "local");
    await page.fill(tid("lt-replicas"), "2");
    await page.selectOption(tid("lt-transport"), "coap");
    expect(await page.locator(tid("lt-transport-issue")).textContent()).toBe("CoAP ingest runs on one decoder replica: set replicas to 1");
    expect(await page.locator(tid("lt-transport")).getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(tid("lt-start")).isDisabled()).toBe(true);
    expect(await page.locator(tid("lt-start-blocked")).textContent()).toBe("Fix 1 field to start: transport.");
    await screenshot(page, "loadtest-10-coap-replicas");

    await page.selectOption(tid("lt-target"), "url");
    await page.selectOption(tid("lt-transport"), "mqtt");
    expect(await page.locator(tid("lt-transport-issue")).textContent()).toMatch(/^an ingest URL takes HTTP only/);
    expect(await page.locator(tid("lt-start")).isDisabled()).toBe(true);

    await page.selectOption(tid("lt-target"), "local");
    await page.fill(tid("lt-replicas"), "1");
    expect(await page.locator(tid("lt-transport-issue")).count()).toBe(0);
    // HTTP's connection choice does not apply to MQTT devices
    expect(await page.locator(tid("lt-connection")).count()).toBe(0);
    await screenshot(page, "loadtest-11-mqtt-form");
    await page.click(tid("lt-start"));
    expect(await newestFinished(page)).toBe("completed");
    await page.waitForSelector(tid("lt-result-server"));
    expect(await page.locator(tid("lt-result-transport")).textContent()).toBe("MQTT");
    expect(await page.locator(tid("lt-history-transport")).first().textContent()).toBe("MQTT");
    expect(await page.locator(tid("lt-result-failures")).textContent()).toBe("0");
    const acked = await count(page, "lt-result-acked");
    expect(acked).toBeGreaterThan(10);
    expect(await count(page, "lt-result-stored")).toBe(acked);
    await page.locator(tid("lt-result")).scrollIntoViewIfNeeded();
    await screenshot(page, "loadtest-12-mqtt-result");
    expect(errors).toEqual([]);
  });
});
