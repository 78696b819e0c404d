// The Stack page with MQTT and CoAP ingest ticked in its start form: CoAP with several replicas is
// refused next to its box, the running stack lists both endpoints, and records sent from Debian's
// mosquitto_pub and libcoap's coap-client to those addresses appear live in its table.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { codecFor, generateSamples, parseLayout, presetById } from "#codecs";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot } from "./support/session.ts";
import { useStackSession } from "./support/stackSession.ts";
import { tid, waitForStackRunning } from "./support/ui.ts";

const session = useStackSession();
const tmp = mkdtempSync(path.join(os.tmpdir(), "satpayload-e2e-transports-"));

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

// owned: a client still running after 30 s, or when the test ends, is stopped
const run = async (cmd: string, args: string[]) => {
  const r = await runOwned(cmd, args, { timeoutMs: 30_000 });
  return { code: r.code === 0 ? 0 : 1, out: r.stdout + r.stderr };
};

describe("stack page with MQTT and CoAP ingest", SCENARIO, () => {
  it("lists the MQTT and CoAP endpoints and shows records sent there live", { timeout: 240_000 }, async () => {
    const paper = parseLayout(presetById("paper")!.layout);
    const { page, errors } = await session().open({ width: 1440, height: 1000 });
    await page.waitForSelector(tid("start-screen"));
    await page.click(tid("nav-stack"));
    await page.waitForSelector(tid("stack-empty"));
    await page.check(tid("stack-mqtt"));
    await page.check(tid("stack-coap"));
    await page.fill(tid("stack-replicas"), "2");
    expect(await page.locator(tid("stack-coap-problem")).textContent()).toMatch(
      /CoAP ingest needs one decoder replica/,
    );
    expect(await page.locator(tid("stack-start")).isDisabled()).toBe(true);
    await screenshot(page, "stack-07-transports-form");
    await page.fill(tid("stack-replicas"), "1");
    expect(await page.locator(tid("stack-coap-problem")).count()).toBe(0);
    await page.click(tid("stack-start"));
    await waitForStackRunning(page);
    const status = (await session().server.host.dispatch("stack.status", {})) as {
      options?: { mqttPort?: number; coapPort?: number };
    };
    expect(status.options).toMatchObject({ mqttPort: 0, coapPort: 0 });
    const mqttUrl = (await page.locator(tid("ep-mqtt")).textContent())!;
    const coapUrl = (await page.locator(tid("ep-coap")).textContent())!;
    expect(mqttUrl).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
    expect(coapUrl).toMatch(/^coap:\/\/127\.0\.0\.1:\d+$/);

    const [a, b] = generateSamples(paper, 2, 314);
    writeFileSync(path.join(tmp, "a.pb"), codecFor(paper, "protobuf").encode(a!));
    writeFileSync(path.join(tmp, "b.cbor"), codecFor(paper, "cbor").encode(b!));
    const pub = await run("mosquitto_pub", [
      "-h",
      "127.0.0.1",
      "-p",
      new URL(mqttUrl).port,
      "-q",
      "1",
      "-d",
      "-t",
      "satpayload/-/paper/protobuf/via-mqtt",
      "-f",
      path.join(tmp, "a.pb"),
    ]);
    expect(pub.out).toContain("received PUBACK");
    const post = await run("coap-client-notls", [
      "-m",
      "post",
      "-t",
      "60",
      "-f",
      path.join(tmp, "b.cbor"),
      `coap://127.0.0.1:${new URL(coapUrl).port}/ingest?layout=paper&id=via-coap`,
    ]);
    expect(JSON.parse(post.out.trim())).toMatchObject({ messageId: "via-coap" });

    await page.waitForSelector(tid("record-via-mqtt"), { timeout: 20_000 });
    await page.waitForSelector(tid("record-via-coap"), { timeout: 20_000 });
    await page.waitForFunction(
      () => !document.querySelector('[data-testid="stack-records"] tbody')?.textContent?.includes("pending"),
      undefined,
      { timeout: 30_000 },
    );
    await page.waitForFunction(
      () => document.querySelector('[data-testid="kpi-forwarded"]')?.getAttribute("data-value") === "2",
      undefined,
      { timeout: 30_000 },
    );
    await page.locator(tid("stack-endpoints")).scrollIntoViewIfNeeded();
    await screenshot(page, "stack-06-mqtt-coap");
    await session().server.host.dispatch("stack.down", {});
    await page.waitForSelector(`${tid("stack-state")}[data-state="stopped"]`, { timeout: 60_000 });
    expect(errors).toEqual([]);
  });
});
