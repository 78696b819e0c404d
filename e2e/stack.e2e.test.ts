// The Stack page end to end: start the stack from the UI, send records over HTTP from the test to the
// endpoint the page shows, see them in the live table and numbers, stop it again.
import { describe, expect, it } from "vitest";
import { codecFor, generateSamples, parseLayout, presetById, toPlain } from "#codecs";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot } from "./support/session.ts";
import { useStackSession } from "./support/stackSession.ts";
import { tid, waitForStackRunning } from "./support/ui.ts";

const session = useStackSession();

const paper = parseLayout(presetById("paper")!.layout);

describe("stack page (browser mode)", SCENARIO, () => {
  it(
    "starts the stack, shows records sent to its ingest endpoint live, and stops it",
    { timeout: 240_000 },
    async () => {
      const { page, errors } = await session().open({ width: 1440, height: 1000 });
      await page.waitForSelector(tid("start-screen"));
      await page.click(tid("nav-stack"));
      await page.waitForSelector(tid("stack-empty"));
      expect(await page.locator(tid("stack-state")).getAttribute("data-state")).toBe("stopped");
      await screenshot(page, "stack-01-stopped");

      await page.click(tid("stack-start"));
      await waitForStackRunning(page);
      await page.waitForSelector(tid("stack-records-empty"));
      const ingest = (await page.locator(tid("ep-ingest")).textContent())!;
      expect(ingest).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ingest$/);

      const samples = generateSamples(paper, 6, 2026);
      const formats = ["protobuf", "struct-zlib", "cbor", "msgpack", "json", "protobuf"] as const;
      for (let i = 0; i < samples.length; i++) {
        const bytes = codecFor(paper, formats[i]!).encode(samples[i]!);
        const r = await fetch(ingest, {
          method: "POST",
          body: bytes as Uint8Array<ArrayBuffer>,
          headers: {
            "content-type": "application/octet-stream",
            "x-satpayload-format": formats[i]!,
            "x-satpayload-layout": "paper",
            "x-satpayload-message-id": `e2e-${i}`,
          },
        });
        expect(r.status).toBe(201);
      }
      for (let i = 0; i < samples.length; i++) await page.waitForSelector(tid(`record-e2e-${i}`), { timeout: 20_000 });
      await page.waitForFunction(
        () => document.querySelector('[data-testid="kpi-forwarded"]')?.getAttribute("data-value") === "6",
        undefined,
        { timeout: 30_000 },
      );
      expect(await page.locator(tid("kpi-records")).getAttribute("data-value")).toBe("6");
      expect(Number(await page.locator(tid("kpi-devices")).getAttribute("data-value"))).toBe(
        new Set(samples.map((x) => x.iso6346)).size,
      );
      expect(Number(await page.locator(tid("kpi-ratio")).getAttribute("data-value"))).toBeGreaterThan(1);
      // newest on top, and the row's device is the record's container id
      const first = page.locator(`${tid("stack-records")} tbody tr`).first();
      expect(await first.getAttribute("data-testid")).toBe("record-e2e-5");
      expect(await first.locator("td").nth(1).textContent()).toBe(samples[5]!.iso6346);
      // the layout by its name, not by the id the device sent
      expect(await first.locator(tid("record-layout")).textContent()).toBe(presetById("paper")!.name);
      await page.waitForFunction(
        () => Number(document.querySelector('[data-testid="stack-rate"]')?.getAttribute("data-points")) >= 3,
        undefined,
        { timeout: 20_000 },
      );

      await page.click(tid("record-e2e-2"));
      const detail = await page.locator(".stack-detail pre").textContent();
      expect(JSON.parse(detail!)).toEqual(
        toPlain(paper, codecFor(paper, "cbor").decode(codecFor(paper, "cbor").encode(samples[2]!)), "json"),
      );
      await page.click(tid("record-e2e-2"));

      // a few seconds of a small fleet, so the rate chart has a shape worth looking at
      const fleet = generateSamples(paper, 60, 7);
      for (let i = 0; i < fleet.length; i++) {
        const r = await fetch(ingest, {
          method: "POST",
          body: codecFor(paper, "protobuf").encode(fleet[i]!) as Uint8Array<ArrayBuffer>,
          headers: {
            "content-type": "application/x-protobuf",
            "x-satpayload-layout": "paper",
            "x-satpayload-message-id": `fleet-${i}`,
          },
        });
        expect(r.status).toBe(201);
        await new Promise((res) => setTimeout(res, 40 + (i % 20) * 6));
      }
      await page.waitForFunction(
        () => document.querySelector('[data-testid="kpi-forwarded"]')?.getAttribute("data-value") === "66",
        undefined,
        { timeout: 30_000 },
      );
      await page.waitForFunction(
        () => Number(document.querySelector('[data-testid="stack-rate"]')?.getAttribute("data-points")) >= 8,
        undefined,
        { timeout: 20_000 },
      );
      // once the CSE has everything, no row still says pending
      await page.waitForFunction(
        () => !document.querySelector('[data-testid="stack-records"] tbody')?.textContent?.includes("pending"),
        undefined,
        { timeout: 10_000 },
      );
      // one replica: the CSE runs in the decoder's process, and the page says so
      expect(await page.locator(tid("stack-cse-in-decoder")).count()).toBe(1);
      expect(await page.locator(tid("service-cse")).count()).toBe(0);
      await screenshot(page, "stack-02-running");
      await page.locator(tid("stack-services")).scrollIntoViewIfNeeded();
      await screenshot(page, "stack-02b-services");
      await page.evaluate(() => window.scrollTo(0, 0));

      await page.emulateMedia({ colorScheme: "dark" });
      await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
      await screenshot(page, "stack-03-running-dark");
      await page.evaluate(() => (document.documentElement.dataset.theme = "light"));

      await page.click(tid("stack-stop"));
      await page.waitForSelector(tid("stack-empty"), { timeout: 60_000 });
      await page.waitForSelector(`${tid("stack-state")}[data-state="stopped"]`, { timeout: 30_000 });
      // the last run's records stay on screen after Stop, until the next Start or Clear
      await page.waitForSelector(tid("record-fleet-59"));
      // the table holds the newest 50 of the 66 records
      expect(await page.locator(tid("stack-records")).getAttribute("data-count")).toBe("50");
      await screenshot(page, "stack-04-stopped-records");
      await page.click(tid("stack-records-clear"));
      await page.waitForSelector(tid("stack-records"), { state: "detached" });
      expect((await session().server.host.dispatch("stack.status", {})) as { state: string }).toMatchObject({
        state: "stopped",
      });
      expect(errors).toEqual([]);
    },
  );

  it(
    "maps a device path from the start form; unmodified clients get 200 there and on /container-data",
    { timeout: 240_000 },
    async () => {
      const { page, errors } = await session().open({ width: 1440, height: 1000 });
      await page.waitForSelector(tid("start-screen"));
      await page.click(tid("nav-stack"));
      await page.waitForSelector(tid("stack-empty"));
      await page.click(tid("stack-route-add"));
      await page.fill(tid("stack-route-path-0"), "uplink");
      // the problem shows next to the row and the form cannot start
      expect(await page.locator(tid("stack-route-problem-0")).textContent()).toMatch(/path: must start with \//);
      expect(await page.locator(tid("stack-start")).isDisabled()).toBe(true);
      await page.fill(tid("stack-route-path-0"), "/uplink/cbor");
      await page.selectOption(tid("stack-route-format-0"), "cbor");
      expect(await page.locator(tid("stack-route-problem-0")).count()).toBe(0);
      await page.check(tid("stack-verify-subscriptions"));
      await screenshot(page, "stack-04-routes-form");

      await page.click(tid("stack-start"));
      await waitForStackRunning(page);
      const status = (await session().server.host.dispatch("stack.status", {})) as {
        options: { verifySubscriptions: boolean; routes: unknown[] };
      };
      expect(status.options.verifySubscriptions).toBe(true);
      expect(status.options.routes).toEqual([{ path: "/uplink/cbor", layout: "paper", format: "cbor", body: "auto" }]);
      const route = (await page.locator(tid("ep-route-uplink-cbor")).textContent())!;
      const containerData = (await page.locator(tid("ep-route-container-data")).textContent())!;
      expect(route).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/uplink\/cbor$/);
      const [a, b] = generateSamples(paper, 2, 99);
      const octets = { "content-type": "application/octet-stream" };
      const r1 = await fetch(route, {
        method: "POST",
        body: codecFor(paper, "cbor").encode(a!) as Uint8Array<ArrayBuffer>,
        headers: { ...octets, "x-satpayload-message-id": "route-cbor" },
      });
      expect(r1.status).toBe(200);
      const r2 = await fetch(containerData, {
        method: "POST",
        body: codecFor(paper, "protobuf").encode(b!) as Uint8Array<ArrayBuffer>,
        headers: { ...octets, "x-satpayload-message-id": "route-pb" },
      });
      expect(r2.status).toBe(200);
      await page.waitForSelector(tid("record-route-cbor"), { timeout: 20_000 });
      await page.waitForSelector(tid("record-route-pb"), { timeout: 20_000 });
      // the buffers outlive a stop: both new records are forwarded when forwarded = records again
      await page.waitForFunction(
        () => {
          const v = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute("data-value");
          return v("kpi-records") !== undefined && v("kpi-records") === v("kpi-forwarded");
        },
        undefined,
        { timeout: 30_000 },
      );
      await page.waitForFunction(
        () => !document.querySelector('[data-testid="stack-records"] tbody')?.textContent?.includes("pending"),
        undefined,
        { timeout: 10_000 },
      );
      await page.locator(tid("stack-endpoints")).scrollIntoViewIfNeeded();
      await screenshot(page, "stack-05-routes-running");
      // the log shows each line once (issue #13: the newest lines used to appear twice after start)
      const logLines = (await page.locator(".stack-log > span").allTextContents()).map((t) => t.trim());
      const ingestUrl = (await page.locator(tid("ep-ingest")).textContent())!;
      const started = logLines.filter((t) => t.endsWith(`supervisor running: ingest at ${ingestUrl}`));
      expect(started.length).toBe(1);

      await page.click(tid("stack-stop"));
      await page.waitForSelector(tid("stack-empty"), { timeout: 60_000 });
      expect(errors).toEqual([]);
    },
  );
});
