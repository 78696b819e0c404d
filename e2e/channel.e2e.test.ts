// The Channel page end to end: empty states, a field error, seed 003's preset in the worker (its
// numbers equal the core's for the same seed), and the open layout's fleet with stacks side by side.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed003Row, SEED003_STACKS } from "#planning/channel";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { openPreset, tid } from "./support/ui.ts";

let s: E2eSession;

beforeAll(async () => {
  s = await startSession();
}, 300_000);

afterAll(async () => {
  await s?.close();
});

describe("channel page (browser mode)", SCENARIO, () => {
  it(
    "runs seed 003 and a fleet in the worker, with empty states and errors next to the fields",
    { timeout: 300_000 },
    async () => {
      const { page, errors } = await s.open({ width: 1440, height: 1000 });
      await page.waitForSelector(tid("start-screen"));
      await page.click(tid("nav-channel"));
      await page.waitForSelector(tid("ch-empty"));
      await screenshot(page, "channel-01-empty");

      // the fleet needs a layout: without one the page says so and cannot run
      await page.click(tid("ch-scenario-fleet"));
      await page.waitForSelector(tid("ch-no-layout"));
      expect(await page.locator(tid("ch-run")).isDisabled()).toBe(true);

      await page.click(tid("ch-scenario-seed003"));
      await page.fill(tid("ch-horizon"), "5");
      await page.click(tid("ch-run"));
      await page.waitForSelector(tid("ch-error-horizon"));
      expect(await page.locator(tid("ch-error-horizon")).textContent()).toContain("30");

      await page.fill(tid("ch-horizon"), "60");
      await page.click(tid("ch-run"));
      await page.waitForSelector(tid("ch-seed003-table"), { timeout: 120_000 });
      const cells = await page.locator(`${tid("ch-seed003-table")} tbody tr td:nth-child(2)`).allTextContents();
      const expected = SEED003_STACKS.map((n) => seed003Row(n, 60, 1).goodputKBps.toFixed(2));
      expect(cells).toEqual(expected);
      await page.waitForSelector(`${tid("ch-chart-goodput")} .recharts-bar-rectangle`);
      await page.waitForSelector(`${tid("ch-chart-nstart")} .recharts-line`);
      // the legend lists the lines in the paper's order (1, 2, 5, … in flight, then MQTT), not alphabetically
      const legend = (chart: string) => page.locator(`${tid(chart)} .recharts-legend-item-text`).allTextContents();
      expect(await legend("ch-chart-nstart")).toEqual(
        SEED003_STACKS.map((n) => (n === null ? "MQTT" : `CoAP, ${n} in flight`)),
      );
      expect(await page.locator(tid("channel-page")).textContent()).not.toContain("npm run");
      await screenshot(page, "channel-02-seed003");

      // the open layout's fleet: two stacks side by side, completion time against load
      await page.click(tid("ch-back"));
      await openPreset(page, "paper");
      await page.click(tid("nav-channel"));
      await page.click(tid("ch-scenario-fleet"));
      await page.fill(tid("ch-devices"), "2000");
      await page.fill(tid("ch-perDay"), "24");
      await page.fill(tid("ch-stacks"), "coap:1, udp");
      await page.click(tid("ch-run"));
      await page.waitForSelector(tid("ch-error-stacks"));
      // MQTT first: the table and the legend keep this order (the legend used to sort it alphabetically)
      await page.fill(tid("ch-stacks"), "mqtt, coap:1");
      await page.fill(tid("ch-horizon"), "60");
      await page.click(tid("ch-run"));
      await page.waitForSelector(tid("ch-progress"));
      await page.waitForSelector(tid("ch-fleet-table"), { timeout: 180_000 });
      const stacks = await page.locator(`${tid("ch-fleet-table")} tbody tr.ch-own td:first-child`).allTextContents();
      expect(stacks).toEqual(["MQTT/TCP", "CoAP/UDP NSTART 1"]);
      await page.waitForSelector(`${tid("ch-chart-load")} .recharts-line`);
      expect(await legend("ch-chart-load")).toEqual(["MQTT/TCP", "CoAP/UDP NSTART 1"]);
      expect(await page.locator(`${tid("ch-overhead")} tbody tr`).count()).toBeGreaterThan(5);
      const download = page.waitForEvent("download");
      await page.click(tid("ch-overhead-csv"));
      const csv = await (await download).path();
      expect(csv).toBeTruthy();
      await screenshot(page, "channel-03-fleet");
      expect(errors).toEqual([]);
    },
  );
});
