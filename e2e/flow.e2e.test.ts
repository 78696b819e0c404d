// A first-time user's edits end to end (issue #13): drafts survive a reload even while the layout is
// invalid, leaving with unsaved edits asks first, a project rename reaches everything named after the
// layout, and a new field's key follows its name until the user sets one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { savedVersion, tid, waitForSaved } from "./support/ui.ts";

let s: E2eSession;

beforeAll(async () => {
  s = await startSession();
}, 300_000);

afterAll(async () => {
  await s?.close();
});

type Opened = {
  layout: {
    name: string;
    description?: string;
    fields: { key: string; name: string; type: { min?: number; max?: number } }[];
  };
};

describe("edits are never lost (browser mode)", SCENARIO, () => {
  it("restores an invalid draft after a reload with its problems shown, after asking before leaving", async () => {
    const { page, errors } = await s.open();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.type());
      void d.accept();
    });
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("tree-empty"));
    const created = await savedVersion(page);
    const id = new URL(page.url()).searchParams.get("project")!;
    await page.fill(tid("layout-description"), "Reefer monitor, first draft");
    await page.click(tid("palette-uint8"));
    await page.fill(tid("insp-name"), "Battery level");
    // the key follows the name of a new field
    await expect.poll(() => page.locator(tid("insp-key")).inputValue()).toBe("battery_level");
    // the first autosave may hold the field before its rename; wait until the host has the named field
    await waitForSaved(page, created);
    await expect
      .poll(async () => ((await s.server.host.dispatch("projects.open", { id })) as Opened).layout.fields[0]?.name, {
        timeout: 20_000,
      })
      .toBe("Battery level");
    const v1 = await waitForSaved(page, created);

    // an inverted range: the host refuses to save it, the edit must still survive
    await page.fill(tid("insp-min"), "50");
    await page.fill(tid("insp-max"), "10");
    await page.waitForSelector(`${tid("save-state")}[data-status="invalid"]`);
    // a valid edit on top of the invalid one
    await page.fill(tid("insp-name"), "Battery level (draft)");
    await expect.poll(() => page.locator(tid("insp-key")).inputValue()).toBe("battery_level_draft");

    await page.reload();
    await page.waitForSelector(tid("designer"));
    expect(dialogs).toContain("beforeunload");
    await page.waitForSelector(`${tid("save-state")}[data-status="invalid"]`);
    expect(await page.locator(tid("notice")).textContent()).toMatch(
      /Restored unsaved edits from .*fix the marked problems/,
    );
    await page.click(tid("row-battery_level_draft"));
    expect(await page.locator(tid("insp-name")).inputValue()).toBe("Battery level (draft)");
    expect(await page.locator(tid("insp-max")).inputValue()).toBe("10");
    await expect
      .poll(() =>
        page
          .locator(`${tid("insp-max")} ~ [data-testid="field-issue"]`)
          .first()
          .textContent(),
      )
      .toBe("Maximum is 10; it must be greater than the minimum (50).");
    await screenshot(page, "13-restored-invalid-draft");
    // the host still has the last valid version, untouched
    expect(((await s.server.host.dispatch("projects.open", { id })) as Opened).layout.fields[0]).toMatchObject({
      name: "Battery level",
      key: "battery_level",
    });

    // fixed: the restored draft saves, with the edits made before the reload
    await page.fill(tid("insp-max"), "90");
    await waitForSaved(page, v1);
    const saved = ((await s.server.host.dispatch("projects.open", { id })) as Opened).layout;
    expect(saved.description).toBe("Reefer monitor, first draft");
    expect(saved.fields[0]).toMatchObject({
      name: "Battery level (draft)",
      key: "battery_level_draft",
      type: { min: 50, max: 90 },
    });

    // nothing unsaved: leaving does not ask
    dialogs.length = 0;
    await page.reload();
    await page.waitForSelector(tid("designer"));
    expect(dialogs).toEqual([]);
    expect(await page.locator(tid("notice")).count()).toBe(0);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });

  it("keeps a key the user typed when the name changes again", async () => {
    const { page } = await s.open();
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("tree-empty"));
    await page.click(tid("palette-float32"));
    await page.fill(tid("insp-name"), "Water temperature");
    await expect.poll(() => page.locator(tid("insp-key")).inputValue()).toBe("water_temperature");
    await page.fill(tid("insp-key"), "wt");
    await page.fill(tid("insp-name"), "Sea water temperature");
    expect(await page.locator(tid("insp-key")).inputValue()).toBe("wt");
    await page.click(tid("palette-float32"));
    await page.fill(tid("insp-name"), "Air temperature");
    await expect.poll(() => page.locator(tid("insp-key")).inputValue()).toBe("air_temperature");
    await screenshot(page, "14-key-follows-name");
  });

  it("renames the layout, code headers and the export zip with the project, and the project with the layout", async () => {
    const { page, errors } = await s.open();
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("tree-empty"));
    const id = new URL(page.url()).searchParams.get("project")!;
    const created = await savedVersion(page);
    await page.click(tid("palette-uint8"));
    const v0 = await waitForSaved(page, created);
    await page.click(tid("project-name"));
    await page.fill(tid("project-name-input"), "Container GPS tracker");
    await page.keyboard.press("Enter");
    await waitForSaved(page, v0);
    await page.click(tid("inspector-layout"));
    expect(await page.locator(tid("layout-name")).inputValue()).toBe("Container GPS tracker");
    expect(((await s.server.host.dispatch("projects.open", { id })) as Opened).layout.name).toBe(
      "Container GPS tracker",
    );
    const zip = (await s.server.host.dispatch("exports.zip", { projectId: id })) as { fileName: string };
    expect(zip.fileName).toBe("container-gps-tracker-exports.zip");
    const generated = (await s.server.host.dispatch("exports.generate", { projectId: id })) as {
      files: { path: string; content: string }[];
    };
    const headers = generated.files.filter((f) => f.path.endsWith(".h"));
    expect(headers.length).toBeGreaterThan(0);
    for (const h of headers) expect(h.content, h.path).not.toContain("Untitled layout");
    expect(headers.some((h) => h.content.includes("Container GPS tracker"))).toBe(true);

    // and the other way: the layout's name renames the project
    const v1 = await savedVersion(page);
    await page.fill(tid("layout-name"), "Reefer tracker");
    await waitForSaved(page, v1);
    await expect.poll(() => page.locator(tid("project-name")).textContent()).toBe("Reefer tracker");
    await expect
      .poll(
        async () =>
          ((await s.server.host.dispatch("projects.list", { limit: 50 })) as { id: string; name: string }[]).find(
            (p) => p.id === id,
          )?.name,
      )
      .toBe("Reefer tracker");
    await screenshot(page, "15-one-name");
    expect(errors).toEqual([]);
  });
});
