// Bytes on air end to end: the designer shows each format's message with its transport stack's headers per chosen
// platform, a different stack changes them, and the cost page bills NB-IoT's bytes on air for the scenario's stack.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareStacks, defaultScenario, evaluateFleet, layoutStackId, onAirSummary, platformById } from "#planning";
import { paper, paperMeasured as measured } from "./support/paperMeasured.ts";
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

const layoutId = layoutStackId(paper.name);
const protobuf = measured.find((m) => m.format === "protobuf")!;
const onAir = (platform: string, stack?: string) =>
  onAirSummary(protobuf.sizes, platformById(platform)!, stack, { layout: layoutId, format: "protobuf" }).onAir;

async function attr(page: Page, testId: string, name: string): Promise<number> {
  const v = await page.locator(tid(testId)).getAttribute(name);
  if (v === null || v === "") throw new Error(`${testId} has no ${name}`);
  return Number(v);
}

describe("bytes on air (browser mode)", SCENARIO, () => {
  it("shows on-air bytes per platform in the designer and bills them on the cost page, following the chosen stack", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 1000 });
    await openPreset(page, "paper");
    await page.click(tid("platform-picker"));
    await page.check(tid("platform-nbiot-tn"));
    await page.keyboard.press("Escape");
    await page.waitForSelector(tid("onair-protobuf-nbiot-tn"));

    // Astrocast is a modem link: on air is the payload; NB-IoT defaults to CoAP CON/UDP/IPv4
    expect(await attr(page, "onair-protobuf-astrocast", "data-p50")).toBe(protobuf.stats.p50);
    expect(await page.locator(tid("onair-stack-astrocast")).textContent()).toBe("Raw modem payload");
    const coap = onAir("nbiot-tn");
    expect(coap.p50).toBeGreaterThan(protobuf.stats.p50);
    await expect.poll(() => attr(page, "onair-protobuf-nbiot-tn", "data-p50")).toBe(coap.p50);
    expect(await attr(page, "onair-protobuf-nbiot-tn", "data-max")).toBe(coap.max);

    // the paper's devices POSTed over HTTP: far more on air
    await page.selectOption(tid("onair-stack-nbiot-tn"), "http-paper");
    const http = onAir("nbiot-tn", "http-paper");
    expect(http.p50).toBeGreaterThan(coap.p50);
    await expect.poll(() => attr(page, "onair-protobuf-nbiot-tn", "data-p50")).toBe(http.p50);
    expect(await page.locator(tid("onair-layers")).textContent()).toContain("HTTP/1.1 request head");
    await page.locator(tid("onair")).scrollIntoViewIfNeeded();
    await screenshot(page, "onair-01-designer");

    // the cost page: the scenario's own transport, CoAP by default on NB-IoT
    await page.click(tid("nav-cost"));
    await page.waitForSelector(tid("cost-table"));
    const cost = (transport: Record<string, "coap-con" | "mqtt311-tls">, platform = "nbiot-tn") => {
      const r = evaluateFleet({ ...defaultScenario(), transport }, measured, { layout: layoutId });
      return r.cells.find((c) => c.format === "protobuf" && c.platformId === platform)!;
    };
    const before = cost({});
    await expect.poll(() => attr(page, "cost-protobuf-nbiot-tn", "data-value")).toBeCloseTo(before.monthly.exact!, 9);
    expect(await attr(page, "onair-cost-protobuf-nbiot-tn", "data-value")).toBeCloseTo(before.onAir.mean, 9);
    expect(await page.inputValue(tid("transport-nbiot-tn"))).toBe("coap-con");

    await page.selectOption(tid("transport-nbiot-tn"), "mqtt311-tls");
    const after = cost({ "nbiot-tn": "mqtt311-tls" });
    expect(after.monthly.exact!).toBeGreaterThan(before.monthly.exact!);
    await expect.poll(() => attr(page, "cost-protobuf-nbiot-tn", "data-value")).toBeCloseTo(after.monthly.exact!, 9);
    expect(await attr(page, "onair-cost-protobuf-nbiot-tn", "data-value")).toBeCloseTo(after.onAir.mean, 9);
    // Astrocast's bill does not move: it carries the raw payload
    expect(await attr(page, "cost-protobuf-astrocast", "data-value")).toBeCloseTo(
      cost({}, "astrocast").monthly.exact!,
      6,
    );
    await expect.poll(() => page.locator(tid("cost-save-state")).getAttribute("data-status")).toBe("saved");
    await page.locator(tid("cost-table")).scrollIntoViewIfNeeded();
    await screenshot(page, "onair-02-cost");
    await page.locator(tid("transport-section")).scrollIntoViewIfNeeded();
    await screenshot(page, "onair-03-cost-transport");

    // kept with the project
    await page.reload();
    await page.waitForSelector(tid("cost-table"));
    expect(await page.inputValue(tid("transport-nbiot-tn"))).toBe("mqtt311-tls");
    expect(errors).toEqual([]);
  });

  it("on NB-IoT NTN shows NIDD, SCHC and uncompressed CoAP side by side, and the on-air column takes SCHC when chosen", async () => {
    const rows = compareStacks("nbiot-ntn", measured, { layout: layoutId });
    const schc = rows.find((r) => r.stack === "coap-schc")!.cells.find((c) => c.format === "protobuf")!;
    for (const size of [
      { width: 1440, height: 900 },
      { width: 1024, height: 768 },
    ]) {
      const { page, errors } = await s.open(size);
      await openPreset(page, "paper");
      await page.click(tid("platform-picker"));
      await page.check(tid("platform-nbiot-ntn"));
      await page.keyboard.press("Escape");
      await page.waitForSelector(tid("stack-compare-table"));
      for (const row of rows) {
        const c = row.cells.find((x) => x.format === "protobuf")!;
        await expect.poll(() => attr(page, `stack-compare-${row.stack}-protobuf`, "data-p50")).toBe(c.onAir.p50);
        expect(await attr(page, `stack-compare-${row.stack}-protobuf`, "data-monthly")).toBeCloseTo(c.monthly!, 6);
      }
      expect(schc.onAir.p50).toBe(protobuf.stats.p50 + 2);
      await page.locator(tid("stack-compare")).scrollIntoViewIfNeeded();
      await screenshot(page, `onair-04-stack-compare-${size.width}`);

      // choosing SCHC on the designer's select changes the on-air column to the payload + 2 B
      await page.selectOption(tid("onair-stack-nbiot-ntn"), "coap-schc");
      await expect.poll(() => attr(page, "onair-protobuf-nbiot-ntn", "data-p50")).toBe(protobuf.stats.p50 + 2);
      // SCHC with No-ACK fragments compresses the same: only a packet over a limit would differ
      await page.selectOption(tid("onair-stack-nbiot-ntn"), "coap-schc-noack");
      await expect.poll(() => attr(page, "onair-protobuf-nbiot-ntn", "data-p50")).toBe(protobuf.stats.p50 + 2);
      expect(await page.textContent(tid("stack-compare-note"))).toContain("change none of these sizes");
      expect(errors).toEqual([]);
    }
  });
});
