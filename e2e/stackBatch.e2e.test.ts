// Issue 27 through the stack from the UI: a device route whose messages are batches of the paper
// tracker's readings (as many as fit one Astrocast message), started from the Stack page; one message
// per pass goes in and every reading comes out as its own record, forwarded to the CSE.
import { describe, expect, it } from "vitest";
import { batchCodecFor, generateBatches, parseLayout, presetById } from "#codecs";
import { readingsPerMessage } from "#planning";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot } from "./support/session.ts";
import { useStackSession } from "./support/stackSession.ts";
import { tid, waitForStackRunning } from "./support/ui.ts";

const session = useStackSession();
const tracker = parseLayout(presetById("paper-tracker")!.layout);

describe("a batch route on the Stack page (browser mode)", SCENARIO, () => {
  it(
    "stores and forwards every reading of an Astrocast message per pass as its own record",
    { timeout: 240_000 },
    async () => {
      const { page, errors } = await session().open({ width: 1440, height: 1000 });
      await page.waitForSelector(tid("start-screen"));
      await page.click(tid("nav-stack"));
      await page.waitForSelector(tid("stack-empty"));
      await page.click(tid("stack-route-add"));
      await page.fill(tid("stack-route-path-0"), "/astrocast-pass");
      await page.fill(tid("stack-route-layout-0"), "paper-tracker");
      await page.selectOption(tid("stack-route-format-0"), "bitpacked");
      await page.selectOption(tid("stack-route-batch-0"), "delta");
      expect(await page.locator(tid("stack-route-problem-0")).count()).toBe(0);
      await page.locator(tid("stack-routes")).scrollIntoViewIfNeeded();
      await screenshot(page, "stack-batch-route-1440");
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.locator(tid("stack-routes")).scrollIntoViewIfNeeded();
      await screenshot(page, "stack-batch-route-1024");
      await page.setViewportSize({ width: 1440, height: 1000 });

      await page.click(tid("stack-start"));
      await waitForStackRunning(page);
      const status = (await session().server.host.dispatch("stack.status", {})) as { options: { routes: unknown[] } };
      expect(status.options.routes).toEqual([
        { path: "/astrocast-pass", layout: "paper-tracker", format: "bitpacked", body: "auto", batch: "delta" },
      ]);
      const url = (await page.locator(tid("ep-route-astrocast-pass")).textContent())!;
      expect(
        await page.locator(".stack-endpoints li", { has: page.locator(tid("ep-route-astrocast-pass")) }).textContent(),
      ).toContain("batches (delta), a record per reading");
      const n = readingsPerMessage(tracker, "bitpacked", "delta");
      const [pass] = generateBatches(tracker, 1, n, 7);
      const bytes = batchCodecFor(tracker, "bitpacked", "delta", n).encode(pass!);
      expect(bytes.length).toBeLessThanOrEqual(160);
      const post = () =>
        fetch(url, {
          method: "POST",
          body: bytes as Uint8Array<ArrayBuffer>,
          headers: { "content-type": "application/octet-stream", "x-satpayload-message-id": "pass-1" },
        });
      const r = await post();
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ duplicate: false, readings: { count: n, stored: n } });
      // the portal's retry stores nothing more
      expect(await (await post()).json()).toMatchObject({ duplicate: true, readings: { count: n, stored: 0 } });
      await page.waitForSelector(tid(`record-pass-1~${n - 1}`), { timeout: 20_000 });
      // every reading is a record, and every record reaches the CSE
      await page.waitForFunction(
        (want) => {
          const v = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute("data-value");
          return v("kpi-records") === String(want) && v("kpi-forwarded") === String(want);
        },
        n,
        { timeout: 30_000 },
      );
      await page.locator(tid("stack-records")).scrollIntoViewIfNeeded();
      await screenshot(page, "stack-batch-records-1440");
      expect(errors).toEqual([]);
    },
  );
});
