// The Stack page with a CSE that refuses records for good: the stack forwards to a CSE (the
// embedded one as its own process, given by URL) whose shared container is too small for any
// record. The page lists the refused records under "Refused by the CSE" with the CSE's answer,
// counts them apart from delivered and pending, and its Retry delivers them once the container is
// widened.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codecFor, generateSamples, parseLayout, presetById } from "#codecs";
import { stackSupervisorOf } from "#host/handlers/stack.ts";
import { CSE_ENTRY, launch, stopChild, type Launched } from "#services/shared/launch.ts";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { tid, waitForStackRunning } from "./support/ui.ts";

let s: E2eSession;
let cse: Launched;

beforeAll(async () => {
  s = await startSession();
  cse = await launch(CSE_ENTRY, ["--port", "0"], { timeoutMs: 60_000 });
}, 300_000);

afterAll(async () => {
  await stackSupervisorOf(s?.server.host.events)?.close();
  await s?.close();
  if (cse) await stopChild(cse.child, cse.exited);
});

const paper = parseLayout(presetById("paper")!.layout);

/** oneM2M as the decoder's originator (the container's creator may change it) */
async function m2m(method: "POST" | "PUT", p: string, body: unknown, ty?: number): Promise<number> {
  const r = await fetch(`${String(cse.listening.cseBaseUrl)}${p}`, {
    method,
    headers: {
      "X-M2M-RI": `e2e-${Math.random()}`,
      "X-M2M-Origin": "Cdecoder",
      "X-M2M-RVI": "3",
      "Content-Type": ty === undefined ? "application/json" : `application/json;ty=${ty}`,
    },
    body: JSON.stringify(body),
  });
  await r.text();
  return r.status;
}

/** waits until a KPI's raw number (data-value) is `value` */
const waitKpi = (page: Page, id: string, value: string) =>
  page.waitForFunction(
    ([i, v]) => document.querySelector(`[data-testid="${i}"]`)?.getAttribute("data-value") === v,
    [id, value] as const,
    { timeout: 30_000 },
  );

describe("stack page: records the CSE refuses", SCENARIO, () => {
  it(
    "lists them with the CSE's answer, apart from delivered and pending, and delivers them on Retry after the fix",
    { timeout: 240_000 },
    async () => {
      expect(await m2m("POST", "", { "m2m:ae": { rn: "decoder", api: "Ndecoder", rr: false } }, 2)).toBe(201);
      expect(await m2m("POST", "/decoder", { "m2m:cnt": { rn: "up", mbs: 10 } }, 3)).toBe(201);

      const { page, errors } = await s.open({ width: 1440, height: 1100 });
      await page.waitForSelector(tid("start-screen"));
      await page.click(tid("nav-stack"));
      await page.waitForSelector(tid("stack-empty"));
      await page.click(tid("stack-container-shared"));
      await page.click(tid("stack-cse-external"));
      await page.fill(tid("stack-cse-url"), String(cse.listening.cseBaseUrl));
      await page.click(tid("stack-start"));
      await waitForStackRunning(page);
      await page.waitForSelector(tid("stack-refused-empty"));
      const ingest = (await page.locator(tid("ep-ingest")).textContent())!;

      const samples = generateSamples(paper, 3, 22);
      for (let i = 0; i < samples.length; i++) {
        const r = await fetch(ingest, {
          method: "POST",
          body: codecFor(paper, "protobuf").encode(samples[i]!) as Uint8Array<ArrayBuffer>,
          headers: {
            "content-type": "application/x-protobuf",
            "x-satpayload-layout": "paper",
            "x-satpayload-message-id": `too-big-${i}`,
          },
        });
        expect(r.status).toBe(201);
      }
      // counted as refused — not delivered, not pending — and listed with the CSE's own answer
      await waitKpi(page, "kpi-refused", "3");
      expect(await page.locator(tid("kpi-forwarded")).getAttribute("data-value")).toBe("0");
      expect(await page.locator(tid("kpi-backlog")).getAttribute("data-value")).toBe("0");
      const row = page.locator(tid("refused-container-up"));
      await row.waitFor();
      expect(await row.locator("td").nth(1).textContent()).toBe("3");
      expect(await row.locator("td").nth(2).textContent()).toMatch(/HTTP 406 · RSC 5207/);
      await page.waitForFunction(
        () => document.querySelector('[data-testid="stack-records"] tbody')?.textContent?.includes("refused"),
        undefined,
        { timeout: 10_000 },
      );
      await page.locator(tid("stack-refused")).scrollIntoViewIfNeeded();
      await page.click(".stack-refused-records summary");
      await page.waitForSelector(tid("refused-too-big-2"));
      await screenshot(page, "stack-06-refused");

      // the user widens the container in the CSE, then retries from the page
      expect(await m2m("PUT", "/decoder/up", { "m2m:cnt": { mbs: 1_000_000 } })).toBe(200);
      await page.click(tid("retry-container-up"));
      await page.waitForSelector(tid("retry-note"));
      expect(await page.locator(tid("retry-note")).textContent()).toBe(
        "3 records of up back to pending: being forwarded again.",
      );
      await waitKpi(page, "kpi-forwarded", "3");
      expect(await page.locator(tid("kpi-refused")).getAttribute("data-value")).toBe("0");
      await page.waitForSelector(tid("stack-refused-empty"), { timeout: 10_000 });
      await page.waitForFunction(
        () => {
          const t = document.querySelector('[data-testid="stack-records"] tbody')?.textContent ?? "";
          return !t.includes("refused") && !t.includes("pending");
        },
        undefined,
        { timeout: 15_000 },
      );
      await page.locator(tid("stack-refused")).scrollIntoViewIfNeeded();
      await screenshot(page, "stack-07-refused-retried");

      await page.click(tid("stack-stop"));
      await page.waitForSelector(tid("stack-empty"), { timeout: 60_000 });
      expect(errors).toEqual([]);
    },
  );
});
