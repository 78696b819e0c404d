// Issue #13 item 6 in the designer: a field's Protobuf number is given once and shown in the inspector;
// moving the field does not change it, and a deleted field's number is not handed to the next new field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { drag, rowKeys, tid } from "./support/ui.ts";

let s: E2eSession;
beforeAll(async () => {
  s = await startSession();
}, 300_000);
afterAll(async () => {
  await s?.close();
});

describe("Protobuf numbers in the designer", SCENARIO, () => {
  it("keeps a field's number when it moves, and reserves a deleted one", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("tree-empty"));
    await drag(page, page.locator(tid("palette-uint16")), page.locator(tid("tree-empty")));
    await page.waitForSelector(tid("row-u16"));
    await drag(page, page.locator(tid("palette-float32")), page.locator(tid("tree-end")));
    await page.waitForSelector(tid("row-value"));
    await drag(page, page.locator(tid("palette-bool")), page.locator(tid("tree-end")));
    await page.waitForSelector(tid("row-flag"));

    const number = page.locator(tid("insp-pb-number"));
    await page.click(tid("row-flag"));
    await expect.poll(() => number.inputValue()).toBe("3");
    await page.focus(tid("row-flag"));
    await page.keyboard.press("Alt+ArrowUp");
    await page.keyboard.press("Alt+ArrowUp");
    await expect.poll(() => rowKeys(page)).toEqual(["flag", "u16", "value"]);
    await page.click(tid("row-flag"));
    await expect.poll(() => number.inputValue()).toBe("3");
    await screenshot(page, "30-designer-pb-number-kept");

    // u16 (number 1) goes; the next field added takes 4, not 1
    await page.focus(tid("row-u16"));
    await page.keyboard.press("Delete");
    await expect.poll(() => rowKeys(page)).toEqual(["flag", "value"]);
    await drag(page, page.locator(tid("palette-uint8")), page.locator(tid("tree-end")));
    await page.waitForSelector(tid("row-u8"));
    await page.click(tid("row-u8"));
    await expect.poll(() => number.inputValue()).toBe("4");
    expect(errors).toEqual([]);
  }, 120_000);
});
