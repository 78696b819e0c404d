// The Stack page's keys: add a device key from the UI (shown once), the running local stack then
// refuses a record without it (401) and another device's record with it (403), accepts the device's
// own; a revoke from the UI takes effect while the stack runs.
import { describe, expect, it } from "vitest";
import { codecFor, generateSamples, parseLayout, presetById } from "#codecs";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot } from "./support/session.ts";
import { useStackSession } from "./support/stackSession.ts";
import { tid, waitForStackRunning } from "./support/ui.ts";

const session = useStackSession();

const paper = parseLayout(presetById("paper")!.layout);

describe("stack keys (browser mode)", SCENARIO, () => {
  it(
    "adds a device key that the running stack enforces, shows it once, marks a missing device id, and revokes it",
    { timeout: 240_000 },
    async () => {
      const { page, errors } = await session().open({ width: 1440, height: 1100 });
      await page.waitForSelector(tid("start-screen"));
      await page.click(tid("nav-stack"));
      await page.waitForSelector(tid("stack-keys-empty"));

      await page.click(tid("stack-start"));
      await waitForStackRunning(page);
      const ingest = (await page.locator(tid("ep-ingest")).textContent())!;
      const [own, other] = generateSamples(paper, 2, 404);
      const send = (record: typeof own, id: string, key?: string) =>
        fetch(ingest, {
          method: "POST",
          body: codecFor(paper, "protobuf").encode(record!) as Uint8Array<ArrayBuffer>,
          headers: {
            "content-type": "application/x-protobuf",
            "x-satpayload-layout": "paper",
            "x-satpayload-message-id": id,
            ...(key ? { authorization: `Bearer ${key}` } : {}),
          },
        });
      // zero setup: no keys, records are accepted
      expect((await send(own, "k-open")).status).toBe(201);

      // a device key without its device: the problem next to the field, nothing added
      await page.click(tid("stack-key-role-device"));
      await page.click(tid("stack-key-add"));
      expect(await page.locator(tid("stack-key-target-error")).textContent()).toContain("Name the device");
      expect(await page.locator(tid("stack-keys-empty")).count()).toBe(1);

      await page.fill(tid("stack-key-target"), own!.iso6346 as string);
      await page.fill(tid("stack-key-label"), "container on the quay");
      await page.click(tid("stack-key-add"));
      const secret = (await page.locator(tid("stack-key-secret-value")).textContent())!;
      expect(secret).toMatch(/^spk_[a-f0-9]{12}_[A-Za-z0-9_-]{43}$/);
      await page.waitForSelector(tid("stack-keys-table"));
      expect(await page.locator(tid("stack-keys-mode")).textContent()).toContain("Writes need a device or fleet key");
      await screenshot(page, "stack-keys-01-added");

      // the decoder re-reads the file within a second
      await expect.poll(async () => (await send(own, "k-nokey")).status, { timeout: 10_000, interval: 250 }).toBe(401);
      expect((await send(own, "k-own", secret)).status).toBe(201);
      expect((await send(other, "k-other", secret)).status).toBe(403);

      // shown once: gone from the page after Done, and never in the list
      await page.click("text=Done");
      expect(await page.locator(tid("stack-key-secret")).count()).toBe(0);
      expect(await page.locator(tid("stack-keys")).textContent()).not.toContain(secret.slice(18));

      // a fleet key stays, so writes keep needing a key once the device key is revoked
      // (revoking the last writer key reopens a loopback stack, as --auth auto documents)
      await page.click(tid("stack-key-role-fleet"));
      await page.click(tid("stack-key-add"));
      await page.waitForSelector(tid("stack-key-secret-value"));
      await page.click("text=Done");
      const id = secret.slice(4, 16);
      await page.click(tid(`stack-key-revoke-${id}`));
      await page.waitForSelector(`${tid(`stack-key-${id}`)}.revoked`);
      await expect
        .poll(async () => (await send(own, "k-revoked", secret)).status, { timeout: 10_000, interval: 250 })
        .toBe(403);
      await screenshot(page, "stack-keys-02-revoked");

      await page.click(tid("stack-stop"));
      await page.waitForSelector(`${tid("stack-state")}[data-state="stopped"]`, { timeout: 60_000 });
      expect(errors).toEqual([]);
    },
  );
});
