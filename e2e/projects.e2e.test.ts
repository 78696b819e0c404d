// Managing projects and versions end to end (issue #26, point 4): deleting a project from the start screen with
// Undo and Recently deleted, and naming a version and marking it deployed on the evolution tab, which then
// compares with it by default.
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paperPreset } from "#codecs";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { tid, waitForSizes } from "./support/ui.ts";

let s: E2eSession;

beforeAll(async () => {
  s = await startSession();
}, 300_000);

afterAll(async () => {
  await s?.close();
});

const host = <T>(method: string, req: unknown) => s.server.host.dispatch(method, req) as Promise<T>;
type Summary = { id: string; name: string; version: number };
type Version = { version: number; label: string | null; deployed: boolean };

/** Screenshots the issue asks to look at are copied next to the helpers' handover as well. */
async function shot(page: Page, name: string): Promise<void> {
  const file = await screenshot(page, name);
  const out = process.env.SATPAYLOAD_SHOTS_DIR;
  if (out) {
    mkdirSync(out, { recursive: true });
    copyFileSync(file, path.join(out, path.basename(file)));
  }
}

const small = (name: string) => ({
  format: "satlayout",
  version: 1,
  name,
  fields: [{ id: "t", key: "t", name: "Temperature", type: { kind: "int", bits: 16, signed: true } }],
});

describe("projects you can manage (issue #26)", SCENARIO, () => {
  it("deletes a project from the start screen; Undo and Restore bring it back", async () => {
    const keep = await host<Summary>("projects.create", { name: "Fleet tracker", layout: small("Fleet tracker") });
    const gone = await host<Summary>("projects.create", { name: "Untitled layout", layout: small("Untitled layout") });
    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
    ] as const) {
      const { page, errors } = await s.open({ width, height });
      await page.waitForSelector(tid(`recent-${gone.id}`));
      expect(await page.locator(tid("recently-deleted")).count()).toBe(0);

      await page.click(tid(`delete-${gone.id}`));
      await page.waitForSelector(tid("undo-toast"));
      expect(await page.locator(tid("undo-toast")).textContent()).toContain("Deleted Untitled layout.");
      await page.waitForSelector(tid(`recent-${gone.id}`), { state: "detached" });
      await page.waitForSelector(tid(`deleted-${gone.id}`));
      expect((await host<Summary[]>("projects.list", { limit: 200 })).map((p) => p.id)).not.toContain(gone.id);
      await shot(page, `i26-projects-start-deleted-${width}`);

      await page.click(tid("undo-delete"));
      await page.waitForSelector(tid(`recent-${gone.id}`));
      await page.waitForSelector(tid("undo-toast"), { state: "detached" });
      await page.waitForSelector(tid("recently-deleted"), { state: "detached" });
      expect((await host<Summary[]>("projects.list", { limit: 200 })).map((p) => p.id)).toContain(gone.id);
      expect(await host<unknown[]>("projects.deleted", {})).toEqual([]);

      // later, from the Recently deleted list
      await page.click(tid(`delete-${gone.id}`));
      await page.waitForSelector(tid(`restore-${gone.id}`));
      await page.click(tid(`restore-${gone.id}`));
      await page.waitForSelector(tid(`recent-${gone.id}`));
      await page.waitForSelector(tid("recently-deleted"), { state: "detached" });
      // the restored project opens with its layout
      await page.click(tid(`recent-${gone.id}`));
      await page.waitForSelector(tid("designer"));
      // and from the open project's header: back on the start screen, with the same Undo
      await shot(page, `i26-projects-designer-header-${width}`);
      await page.click(tid("delete-project"));
      await page.waitForSelector(tid("start-screen"));
      await page.waitForSelector(tid(`deleted-${gone.id}`));
      expect(new URL(page.url()).searchParams.get("project")).toBeNull();
      await page.click(tid("undo-delete"));
      await page.waitForSelector(tid(`recent-${gone.id}`));
      expect(errors).toEqual([]);
      await page.close();
    }
    expect((await host<Summary[]>("projects.list", { limit: 200 })).map((p) => p.id)).toEqual(
      expect.arrayContaining([keep.id, gone.id]),
    );
  });

  it("names a version and marks it deployed; the evolution check compares with it by default", async () => {
    const p = await host<Summary>("projects.create", { name: "Container", layout: paperPreset });
    const layout = (await host<{ layout: { fields: Record<string, unknown>[] } }>("projects.open", { id: p.id }))
      .layout;
    // two later versions, each a version of its own: "door" renamed, then rssi made optional
    const v2 = layout.fields.map((f) => (f.id === "door" ? { ...f, key: "door_state" } : f));
    await host("projects.save", { id: p.id, layout: { ...layout, fields: v2 }, baseVersion: 1, coalesce: false });
    const v3 = v2.map((f) => (f.id === "rssi" ? { ...f, presence: "optional" } : f));
    await host("projects.save", { id: p.id, layout: { ...layout, fields: v3 }, baseVersion: 2, coalesce: false });

    const openEvolution = async (width: number, height: number) => {
      const opened = await s.open({ width, height });
      await opened.page.goto(`${s.server.origin}/?project=${p.id}#token=${s.server.token}`);
      await opened.page.waitForSelector(tid("designer"));
      await waitForSizes(opened.page);
      await opened.page.click(tid("nav-export"));
      await opened.page.click(tid("tab-export-evolution"));
      await opened.page.waitForSelector(tid("diff-view"));
      return opened;
    };
    const basis = (page: Page) => page.locator(tid("diff-basis"));

    const { page, errors } = await openEvolution(1440, 900);
    // nothing marked yet: the version before the newest, and the page says so
    await expect.poll(() => basis(page).getAttribute("data-base")).toBe("2");
    expect(await basis(page).textContent()).toContain("no version is marked as deployed yet");

    await page.selectOption(tid("diff-base"), "1");
    await expect.poll(() => basis(page).getAttribute("data-base")).toBe("1");
    await page.fill(tid("version-label"), "Field trial firmware 1.2");
    await page.click(tid("version-label-save"));
    await page.click(tid("mark-deployed"));
    await expect
      .poll(() => basis(page).textContent())
      .toBe("Comparing with v1 “Field trial firmware 1.2”, the version marked as deployed.");
    expect(await page.locator(`${tid("diff-base")} option[value="1"]`).textContent()).toContain(
      "v1 “Field trial firmware 1.2” · deployed",
    );
    expect(
      (await host<Version[]>("projects.history", { id: p.id })).map((v) => [v.version, v.label, v.deployed]),
    ).toEqual([
      [3, null, false],
      [2, null, false],
      [1, "Field trial firmware 1.2", true],
    ]);
    await page.waitForSelector(tid("verdict-json-old-reads-new"));
    await shot(page, "i26-projects-evolution-deployed-1440");
    expect(errors).toEqual([]);
    await page.close();

    // a new window compares with the deployed version from the start
    const again = await openEvolution(1024, 768);
    await expect.poll(() => basis(again.page).getAttribute("data-base")).toBe("1");
    expect(await basis(again.page).getAttribute("data-deployed")).toBe("1");
    await again.page.waitForSelector(tid("verdict-json-old-reads-new"));
    await shot(again.page, "i26-projects-evolution-deployed-1024");

    // the Fit advisor checks its plan against the deployed version too, read from the host for this project
    await again.page.click(tid("nav-advisor"));
    const deployed = again.page.locator(tid("advisor-plan-deployed"));
    await deployed.waitFor({ timeout: 120_000 });
    expect(await deployed.getAttribute("data-compat")).toBe("breaking");
    expect(await deployed.textContent()).toContain("Receivers built for v1 “Field trial firmware 1.2” (deployed)");
    expect(await again.page.locator(tid("advisor-plan-deployed-verdict")).getAttribute("title")).toContain(
      "Receivers built for version v1 “Field trial firmware 1.2” (deployed) misread or refuse",
    );
    await shot(again.page, "i26-advisor-deployed-1024");
    expect(again.errors).toEqual([]);
  });
});
