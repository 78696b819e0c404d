// The DevKit bench end to end: the real browser-mode host, the simulated DevKit on a pseudo-terminal behind
// the real serial binding, and the built UI in headless Chromium. Sends the paper preset's Protobuf payload
// and follows it into the queue, through a satellite pass to its acknowledgement, and into the frame log.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesToHex, paperPreset, parseLayout } from "#codecs";
import { designPayload } from "#host/devkit/design.ts";
import { devkitServiceOf } from "#host/handlers/devkit.ts";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { openPreset, tid } from "./support/ui.ts";

let s: E2eSession;

beforeAll(async () => {
  s = await startSession();
}, 300_000);

afterAll(async () => {
  if (s) await devkitServiceOf(s.server.host.events)?.dispose();
  await s?.close();
});

describe("DevKit bench (browser mode, simulated DevKit on a pty)", SCENARIO, () => {
  it("connects, sends the paper preset's Protobuf payload, sees it queued, acknowledged and logged", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 1000 });
    await page.waitForSelector(tid("start-screen"));
    await openPreset(page, "paper");

    await page.click(tid("nav-bench"));
    await page.waitForSelector(tid("bench-page"));
    await page.waitForSelector(tid("module-empty"));
    await page.waitForSelector(tid("log-empty"));
    expect(await page.locator(tid("devkit-state")).getAttribute("data-state")).toBe("disconnected");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="port-select"] option').length >= 2);
    await screenshot(page, "10-bench-disconnected");

    await page.selectOption(tid("port-select"), "sim:astronode-s");
    await page.click(tid("connect"));
    await page.waitForSelector(`${tid("devkit-state")}[data-state="ready"]`, { timeout: 30_000 });
    await expect
      .poll(() => page.locator(tid("info-product")).textContent(), { timeout: 20_000 })
      .toContain("Astronode S");

    // passes on demand only, so the queued state can be seen before the ack
    await page.locator(tid("sim-card")).getByRole("button", { name: "Off" }).click();
    await page.waitForSelector(`${tid("flash-sim")}:has-text("Automatic passes off")`);

    // JSON does not fit: the page says by how much and will not send it
    await page.selectOption(tid("send-format"), "json");
    const over = Number(await page.locator(tid("send-verdict")).getAttribute("data-over"));
    expect(over).toBeGreaterThan(200);
    expect(await page.locator(tid("send-verdict")).textContent()).toMatch(
      new RegExp(`${over} over the Astronode's 160`),
    );
    expect(await page.locator(tid("send-design")).isDisabled()).toBe(true);

    await page.selectOption(tid("send-format"), "protobuf");
    await page.fill(tid("send-sample"), "0");
    const expected = designPayload(parseLayout(paperPreset), "protobuf", 0, 1);
    await expect.poll(() => page.locator(tid("send-verdict")).getAttribute("data-bytes")).toBe(String(expected.length));
    await page.click(tid("send-design"));
    const flashText = (await page.locator(tid("flash-send")).textContent({ timeout: 20_000 })) ?? "";
    const queueId = Number(/payload id (\d+)/.exec(flashText)?.[1]);
    expect(flashText).toContain(`${expected.length} B of protobuf, sample 0`);
    const row = page.locator(`${tid("queue-ours")} ${tid(`tx-${queueId}`)}`);
    await expect.poll(() => row.getAttribute("data-status"), { timeout: 10_000 }).toBe("queued");
    await expect.poll(() => page.locator(tid("queue-slots")).getAttribute("data-queued")).toBe("1");
    await screenshot(page, "11-bench-queued");

    await page.click(tid("sim-pass"));
    // the background EVT poll (every 2 s) reads the ack, clears it and records it
    const history = page.locator(`${tid("tx-history")} ${tid(`tx-${queueId}`)}`);
    await expect.poll(() => history.getAttribute("data-status"), { timeout: 20_000 }).toBe("acked");
    await expect
      .poll(() => page.locator(tid("notices")).textContent())
      .toContain(`satellite acknowledged payload ${queueId}`);
    await page.waitForSelector(tid("queue-empty"), { timeout: 10_000 });

    const log = page.locator(tid("log"));
    await expect.poll(() => log.textContent()).toContain(`PLD_ER id=${queueId}`);
    // the log streams its lines apart from the history's state: the ack's line may land a moment later
    await expect.poll(() => log.textContent()).toContain(`SAK_RA id=${queueId}`);
    expect(await log.textContent()).toContain(bytesToHex(expected).toUpperCase().slice(0, 24));
    await screenshot(page, "12-bench-acked");

    const [download] = await Promise.all([page.waitForEvent("download"), page.click(tid("log-export"))]);
    expect(download.suggestedFilename()).toMatch(/^devkit-log-.*\.txt$/);
    const exported = await readFile((await download.path())!, "utf8");
    expect(exported).toContain(`PLD_ER id=${queueId}`);
    expect(exported).toContain(`SAK_RA id=${queueId}`);

    // what the database holds for it
    const rows = (await s.server.host.dispatch("devkit.transmissions", {})) as {
      queueId: number;
      payloadHex: string;
      format: string;
      layoutVersion: number;
      ackedAt: string | null;
    }[];
    const stored = rows.find((r) => r.queueId === queueId)!;
    expect(stored).toMatchObject({ payloadHex: bytesToHex(expected), format: "protobuf", layoutVersion: 1 });
    expect(stored.ackedAt).not.toBeNull();

    await page.click(tid("theme-toggle"));
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    await screenshot(page, "13-bench-dark");
    await page.click(tid("theme-toggle"));

    await page.click(tid("disconnect"));
    await page.waitForSelector(`${tid("devkit-state")}[data-state="disconnected"]`);
    await page.click(tid("nav-designer"));
    await page.waitForSelector(tid("designer"));
    expect(errors).toEqual([]);
  }, 180_000);

  it("Wi-Fi DevKit setup shows each problem next to its field and saves a valid setup", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.waitForSelector(tid("start-screen"));
    await page.click(tid("nav-bench"));
    await page.waitForSelector(tid("send-empty"));
    await page.selectOption(tid("port-select"), "sim:wifi-devkit");
    await page.click(tid("connect"));
    await page.waitForSelector(`${tid("devkit-state")}[data-state="ready"]`, { timeout: 30_000 });
    await page.waitForSelector(tid("wifi-ssid"));

    await page.fill(tid("wifi-ssid"), "Büro");
    await page.fill(tid("wifi-password"), "correct horse");
    await page.fill(tid("wifi-token"), "t".repeat(40));
    expect(await page.locator(tid("wifi-ssid-msg")).textContent()).toMatch(/only printable ASCII/);
    expect(await page.locator(tid("wifi-token-msg")).textContent()).toMatch(/exactly 96 characters \(40 given\)/);
    expect(await page.locator(tid("wifi-send")).isDisabled()).toBe(true);
    await screenshot(page, "14-bench-wifi-invalid");

    await page.fill(tid("wifi-ssid"), "lab-net");
    await page.fill(tid("wifi-token"), "a1".repeat(48));
    expect(await page.locator(tid("wifi-ssid-msg")).count()).toBe(0);
    await page.click(tid("wifi-send"));
    await page.waitForSelector(`${tid("flash-wifi")}:has-text("written and saved")`, { timeout: 20_000 });
    expect(await page.locator(tid("log")).textContent()).toContain('WIF_WR ssid="lab-net"');
    await page.click(tid("disconnect"));
    await page.waitForSelector(`${tid("devkit-state")}[data-state="disconnected"]`);
    expect(errors).toEqual([]);
  }, 120_000);

  it("BUFFER_FULL replaces the last success line; the module clock and next contact keep counting", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 1000 });
    await page.waitForSelector(tid("start-screen"));
    await page.click(tid("nav-bench"));
    await page.waitForSelector(tid("send-empty"));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="port-select"] option').length >= 2);
    await page.selectOption(tid("port-select"), "sim:astronode-s");
    await page.click(tid("connect"));
    await page.waitForSelector(`${tid("devkit-state")}[data-state="ready"]`, { timeout: 60_000 });
    await page.locator(tid("sim-card")).getByRole("button", { name: "Off" }).click();
    await page.waitForSelector(`${tid("flash-sim")}:has-text("Automatic passes off")`);
    expect(await page.locator(tid("sim-line-rate")).isChecked()).toBe(true);
    expect(await page.locator(tid("sim-first-request-lost")).isChecked()).toBe(false);
    // the power-on reset event has been read and cleared: from here on no notice re-reads the module
    await expect
      .poll(() => page.locator(tid("notices")).textContent(), { timeout: 20_000 })
      .toContain("the module restarted");

    // fill the module's 8 slots (whatever an earlier test left), then one more
    let queued = 0;
    for (let n = 1; n <= 9; n++) {
      await page.fill(tid("hex-input"), "ab".repeat(n));
      await page.click(tid("hex-send"));
      const outcome = await Promise.race([
        page
          .waitForSelector(`${tid("flash-hex")}:has-text("(${n} B)")`, { timeout: 20_000 })
          .then(() => "queued" as const),
        page.waitForSelector(tid("error-hex"), { timeout: 20_000 }).then(() => "refused" as const),
      ]);
      if (outcome === "refused") break;
      queued++;
    }
    expect(queued).toBeGreaterThan(0);
    expect(await page.locator(tid("error-hex")).textContent()).toMatch(/BUFFER_FULL/);
    // the success line of the enqueue before is gone: only the refusal is shown
    expect(await page.locator(tid("flash-hex")).count()).toBe(0);

    // nothing reads the module now (no ack, no reset): the page itself must keep the clock going
    const rtc = (await page.locator(tid("info-rtc")).textContent()) ?? "";
    const next = (await page.locator(tid("info-next-contact")).textContent()) ?? "";
    expect(rtc).toMatch(/UTC$/);

    await expect.poll(() => page.locator(tid("info-rtc")).textContent(), { timeout: 10_000 }).not.toBe(rtc);
    await expect.poll(() => page.locator(tid("info-next-contact")).textContent(), { timeout: 10_000 }).not.toBe(next);
    await screenshot(page, "15-bench-buffer-full");

    await page.click(tid("free"));
    await page.waitForSelector(`${tid("flash-dequeue")}:has-text("Queue emptied")`);
    await page.click(tid("disconnect"));
    await page.waitForSelector(`${tid("devkit-state")}[data-state="disconnected"]`);
    // the module's BUFFER_FULL reaches the page as a 409, which the browser logs
    expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
  }, 240_000);
});
