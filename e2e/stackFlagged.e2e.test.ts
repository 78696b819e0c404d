// Values beyond the layout on the Stack page: readings written as the paper author's CBOR sender
// writes them (latitude and longitude with 4 decimals where the layout declares 2), posted to the
// running stack, appear counted per field in the page's card and are stored exactly as sent.
import { Encoder } from "cbor-x";
import { describe, expect, it } from "vitest";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot } from "./support/session.ts";
import { useStackSession } from "./support/stackSession.ts";
import { tid, waitForStackRunning } from "./support/ui.ts";

const session = useStackSession();

const reading = (i: number, latitude: string, longitude: string) => ({
  msisdn: "393600504873",
  iso6346: `LMCU000${4200 + i}`,
  time: "271126 101530.4",
  rssi: "27",
  cgi: "999-01-1-31D41",
  "ble-m": "1",
  "bat-soc": "88",
  acc: "-980.1234 -20.5678 -45.0001",
  temperature: "21.37",
  humidity: "70.12",
  pressure: "1010.1234",
  door: "D",
  gnss: "1",
  latitude,
  longitude,
  altitude: "45.10",
  speed: "12.3",
  heading: "123.45",
  nsat: "07",
  hdop: "1.5",
});

describe("stack page: values beyond the layout", SCENARIO, () => {
  it(
    "counts each field sent finer than declared, and the stored record keeps the sent text",
    { timeout: 240_000 },
    async () => {
      const { page, errors } = await session().open({ width: 1440, height: 1000 });
      await page.waitForSelector(tid("start-screen"));
      await page.click(tid("nav-stack"));
      await page.waitForSelector(tid("stack-empty"));
      await page.click(tid("stack-start"));
      await waitForStackRunning(page);
      await page.waitForSelector(tid("stack-flagged"));
      expect(await page.locator(tid("stack-flagged")).textContent()).toContain("No value beyond its layout so far");

      const ingest = (await page.locator(tid("ep-ingest")).textContent())!;
      const cbor = new Encoder({ useRecords: false, variableMapSize: true });
      // three finer latitudes, one finer longitude, one reading the layout holds ("31.6200")
      const sent = [
        reading(1, "31.6225", "28.7400"),
        reading(2, "31.7011", "28.6022"),
        reading(3, "32.0009", "28.7400"),
        reading(4, "31.6200", "28.7400"),
      ];
      for (const [i, r] of sent.entries()) {
        const res = await fetch(ingest, {
          method: "POST",
          body: new Uint8Array(cbor.encode(r)),
          headers: {
            "content-type": "application/cbor",
            "x-satpayload-layout": "paper",
            "x-satpayload-message-id": `fine-${i}`,
          },
        });
        expect(res.status).toBe(201);
      }
      await page.waitForFunction(
        () => document.querySelector('[data-testid="stack-flagged"]')?.getAttribute("data-records") === "3",
        undefined,
        { timeout: 30_000 },
      );
      const rows = page.locator(tid("stack-flagged-field"));
      expect(
        await rows.evaluateAll((els) =>
          els.map((e) => [e.getAttribute("data-field"), e.querySelector(".num")?.textContent]),
        ),
      ).toEqual([
        ["latitude", "3"],
        ["longitude", "1"],
      ]);
      // the record as stored: its latitude is the sent text, not the layout's 2 decimals
      await page.waitForSelector(tid("record-fine-0"), { timeout: 20_000 });
      await page.click(tid("record-fine-0"));
      const detail = JSON.parse((await page.locator(".stack-detail pre").textContent())!) as Record<string, string>;
      expect(detail).toEqual(sent[0]);
      await page.locator(tid("stack-flagged")).scrollIntoViewIfNeeded();
      await screenshot(page, "stack-06-flagged");

      await page.click(tid("stack-stop"));
      await page.waitForSelector(tid("stack-empty"), { timeout: 60_000 });
      expect(errors).toEqual([]);
    },
  );
});
