// The Load Test page's transport selector: what a target cannot serve is refused next to the
// Transport select, and a short MQTT run from the form reaches the decoder with as many records
// stored as PUBACKs received; the result and the history say the run went over MQTT.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot } from "./support/session.ts";
import { useStackSession } from "./support/stackSession.ts";
import { tid } from "./support/ui.ts";

const session = useStackSession();

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

/** Waits until the history holds `rows` runs and the newest has left "running"; returns its status. */
async function newestFinished(page: Page, rows: number, timeout = 150_000): Promise<string> {
  await page.waitForFunction(
    (n) => {
      const all = document.querySelectorAll('[data-testid="lt-history-row"]');
      return all.length === n && all[0]!.getAttribute("data-status") !== "running";
    },
    rows,
    { timeout },
  );
  return (await page.locator(tid("lt-history-row")).first().getAttribute("data-status")) ?? "";
}

const count = async (page: Page, id: string) =>
  Number((await page.locator(tid(id)).textContent())!.replace(/[^\d]/g, ""));

describe("load test transports (browser mode)", SCENARIO, () => {
  it(
    "refuses what the target cannot serve next to the field, then runs an MQTT fleet whose PUBACKs all are stored",
    { timeout: 300_000 },
    async () => {
      const { page, errors } = await session().open({ width: 1440, height: 1000 });
      await page.waitForSelector(tid("nav-loadtest"));
      await page.click(tid("nav-loadtest"));
      await page.waitForSelector(tid("loadtest-page"));
      await shortFleet(page);

      await page.selectOption(tid("lt-target"), "local");
      await page.fill(tid("lt-replicas"), "2");
      await page.selectOption(tid("lt-transport"), "coap");
      expect(await page.locator(tid("lt-transport-issue")).textContent()).toBe(
        "CoAP ingest runs on one decoder replica: set replicas to 1",
      );
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
      expect(await newestFinished(page, 1)).toBe("completed");
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
    },
  );

  it(
    "runs MQTT against the stack the Stack page started with MQTT, and says under the field when it lacks CoAP",
    { timeout: 300_000 },
    async () => {
      const up = (await session().server.host.dispatch("stack.up", { replicas: 1, mqttPort: 0 })) as {
        endpoints: { mqtt?: string; coap?: string };
      };
      expect(up.endpoints.mqtt).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
      expect(up.endpoints.coap).toBeUndefined();
      const { page, errors } = await session().open({ width: 1440, height: 1000 });
      await page.waitForSelector(tid("nav-loadtest"));
      await page.click(tid("nav-loadtest"));
      await page.waitForSelector(tid("lt-target-stack"));
      expect(await page.locator(tid("lt-target")).inputValue()).toBe("stack");
      await shortFleet(page);
      await page.selectOption(tid("lt-transport"), "coap");
      expect(await page.locator(tid("lt-transport-issue")).textContent()).toBe(
        "the running stack does not take CoAP: stop it and start it again with CoAP ticked on the Stack page (or satpayload stack up --coap-port 0)",
      );
      expect(await page.locator(tid("lt-start")).isDisabled()).toBe(true);
      await screenshot(page, "loadtest-13-stack-without-coap");

      await page.selectOption(tid("lt-transport"), "mqtt");
      expect(await page.locator(tid("lt-transport-issue")).count()).toBe(0);
      const before = (await session().server.host.dispatch("stack.stats", {})) as { records: number };
      await page.click(tid("lt-start"));
      expect(await newestFinished(page, 2)).toBe("completed");
      await page.waitForSelector(tid("lt-result-server"));
      expect(await page.locator(tid("lt-result-transport")).textContent()).toBe("MQTT");
      expect(await page.locator(tid("lt-history-row")).first().locator("td").nth(5).textContent()).toMatch(
        /^running stack × 1 at 127\.0\.0\.1:\d+$/,
      );
      expect(await page.locator(tid("lt-result-failures")).textContent()).toBe("0");
      const acked = await count(page, "lt-result-acked");
      expect(acked).toBeGreaterThan(10);
      expect(await count(page, "lt-result-stored")).toBe(acked);
      // the Stack page's decoder holds them: the run's records and the one priming message (HTTP)
      const after = (await session().server.host.dispatch("stack.stats", {})) as { records: number };
      expect(after.records - before.records).toBe(acked + 1);
      await screenshot(page, "loadtest-14-mqtt-on-running-stack");
      await session().server.host.dispatch("stack.down", {});
      expect(errors).toEqual([]);
    },
  );
});
