// The designer end to end: the real browser-mode host (temp data dir) and the built renderer in headless Chromium.
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMAT_IDS, generateSamples, measureSizes, parseLayout } from "#codecs";
import { repoRoot } from "./support/build.ts";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import {
  drag,
  openPreset,
  rowKeys,
  savedVersion,
  shownLayoutKey,
  stat,
  tid,
  waitForSaved,
  waitForSizes,
} from "./support/ui.ts";

let s: E2eSession;

beforeAll(async () => {
  s = await startSession();
}, 300_000);

afterAll(async () => {
  await s?.close();
});

interface CliSizes {
  seed: number;
  sampleCount: number;
  formats: {
    format: string;
    stats: { count: number; min: number; mean: number; p50: number; p95: number; p99: number; max: number };
  }[];
}

function cliSizes(): CliSizes {
  const out = execFileSync(
    path.join(repoRoot, "node_modules/.bin/tsx"),
    ["bin/satpayload.ts", "sizes", "--preset", "paper", "--samples", "1000", "--seed", "1", "--json"],
    { cwd: repoRoot, encoding: "utf8" },
  );
  return JSON.parse(out) as CliSizes;
}

describe("designer (browser mode)", SCENARIO, () => {
  it("starts from the paper preset and shows Table 2's sizes, equal to the CLI's", async () => {
    const { page, errors } = await s.open();
    await page.waitForSelector(tid("start-screen"));
    await page.waitForSelector(tid("preset-paper"));
    await screenshot(page, "00-start");
    await openPreset(page, "paper");
    expect(await page.locator(tid("field-count")).textContent()).toBe("20");

    const table2: Record<string, number> = { json: 418, cbor: 298, msgpack: 301, protobuf: 138, "struct-zlib": 127 };
    for (const [format, bytes] of Object.entries(table2))
      expect(Math.abs((await stat(page, format, "mean")) - bytes), format).toBeLessThanOrEqual(6);

    const cli = cliSizes();
    expect(cli.sampleCount).toBe(1000);
    for (const f of cli.formats) {
      for (const k of ["min", "mean", "p50", "p95", "p99", "max"] as const)
        expect(await stat(page, f.format, k), `${f.format} ${k}`).toBe(f.stats[k]);
    }
    // the shown mean is the CLI's to one decimal, and Astrocast's verdict follows from max
    expect(await page.locator(tid("size-json-mean")).textContent()).toBe(
      cli.formats.find((f) => f.format === "json")!.stats.mean.toFixed(1),
    );
    expect(await page.locator(tid("verdict-json-astrocast")).getAttribute("data-fits-max")).toBe("false");
    expect(await page.locator(tid("verdict-protobuf-astrocast")).getAttribute("data-fits-max")).toBe("true");
    await expect
      .poll(() => page.locator(tid("zlib-implementation")).textContent())
      .toMatch(/Struct\+Zlib sizes model: \S+/);
    await screenshot(page, "01-paper-sizes");

    // per-field attribution over the same samples: its mean total is the table's mean
    await page.click(tid("tab-attribution"));
    await page.waitForSelector(tid("attribution-table"));
    for (const f of ["json", "protobuf", "struct-zlib"]) {
      const mean = cli.formats.find((x) => x.format === f)!.stats.mean;
      expect(await page.locator(`${tid(`attribution-row-${f}`)} td:last-child`).textContent(), f).toBe(
        `${mean.toFixed(1)} B`,
      );
    }
    // Struct+Zlib shows what compression changes next to the stream's fields and framing
    expect(await page.locator(`${tid("attribution-row-struct-zlib")} td:nth-child(4)`).textContent()).toMatch(
      /^-?\d+\.\d B$/,
    );
    await screenshot(page, "01a-paper-attribution");
    await page.click(tid("tab-sizes"));

    // the same view in the dark theme, for the docs
    await page.click(tid("theme-toggle"));
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    await screenshot(page, "01b-paper-sizes-dark");
    // wider screens get the fit verdicts above the fold
    await page.click(tid("theme-toggle"));
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.click(tid("row-pressure"));
    await page.mouse.move(1590, 990);
    await screenshot(page, "01c-paper-wide");
    expect(errors).toEqual([]);
  });

  it("builds a 5-field layout from scratch by drag and drop, including nesting and reordering", async () => {
    const { page, errors } = await s.open();
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("tree-empty"));
    await page.waitForSelector(tid("analysis-empty"));

    await drag(page, page.locator(tid("palette-uint16")), page.locator(tid("tree-empty")));
    await page.waitForSelector(tid("row-u16"));
    await drag(page, page.locator(tid("palette-float32")), page.locator(tid("tree-end")));
    await page.waitForSelector(tid("row-value"));
    // into the top half of the first row: before it
    await drag(page, page.locator(tid("palette-string")), page.locator(tid("row-u16")), "top");
    await page.waitForSelector(tid("row-text"));
    await drag(page, page.locator(tid("palette-group")), page.locator(tid("tree-end")));
    await page.waitForSelector(tid("row-group"));
    // into the bottom half of a group's row: first inside the group
    await drag(page, page.locator(tid("palette-bool")), page.locator(tid("row-group")), "bottom");
    await page.waitForSelector(tid("row-group.flag"));
    expect(await rowKeys(page)).toEqual(["text", "u16", "value", "group", "group.flag"]);

    // reorder by dragging a row's handle above the first row
    await drag(page, page.locator(tid("handle-value")), page.locator(tid("row-text")), "top");
    await expect.poll(() => rowKeys(page)).toEqual(["value", "text", "u16", "group", "group.flag"]);
    expect(await page.locator(tid("field-count")).textContent()).toBe("5");

    // every drag has a keyboard twin on the focused row
    await page.focus(tid("row-u16"));
    await page.keyboard.press("Alt+ArrowUp");
    await expect.poll(() => rowKeys(page)).toEqual(["value", "u16", "text", "group", "group.flag"]);
    await page.focus(tid("row-text"));
    await page.keyboard.press("Alt+ArrowDown");
    await expect.poll(() => rowKeys(page)).toEqual(["value", "u16", "group", "group.flag", "text"]);
    await page.keyboard.press("Alt+ArrowRight");
    await expect.poll(() => rowKeys(page)).toEqual(["value", "u16", "group", "group.flag", "group.text"]);
    await page.focus(tid("row-group.text"));
    await page.keyboard.press("Alt+ArrowLeft");
    await expect.poll(() => rowKeys(page)).toEqual(["value", "u16", "group", "group.flag", "text"]);
    await page.focus(tid("row-u16"));
    await page.keyboard.press("Control+d");
    await expect.poll(() => rowKeys(page)).toEqual(["value", "u16", "u16_copy", "group", "group.flag", "text"]);
    await page.keyboard.press("Delete");
    await expect.poll(() => rowKeys(page)).toEqual(["value", "u16", "group", "group.flag", "text"]);
    // and the drag itself works from the keyboard: Space picks the row up, arrows move it, Space drops
    await page.focus(tid("handle-value"));
    await page.keyboard.press("Space");
    await page.waitForSelector(".tree.dragging");
    await page.keyboard.press("ArrowDown");
    await page.waitForSelector(".row.drop-after, .row.drop-before");
    await page.keyboard.press("Space");
    await page.waitForSelector(".tree.dragging", { state: "detached" });
    await expect.poll(() => rowKeys(page)).toEqual(["u16", "value", "group", "group.flag", "text"]);

    // what the host saved is what was built, and the sizes shown are the codecs' own for it
    await waitForSaved(page, 1);
    await waitForSizes(page);
    const id = new URL(page.url()).searchParams.get("project")!;
    const saved = (await s.server.host.dispatch("projects.open", { id })) as { layout: unknown };
    const layout = parseLayout(saved.layout);
    expect(layout.fields.map((f) => f.key)).toEqual(["u16", "value", "group", "text"]);
    const expected = measureSizes(layout, generateSamples(layout, 1000, 1));
    for (const m of expected) {
      if (m.stats.count === 0) continue;
      expect(await stat(page, m.format, "mean"), m.format).toBe(m.stats.mean);
      expect(await stat(page, m.format, "max"), m.format).toBe(m.stats.max);
    }
    await screenshot(page, "02-built-by-drag");
    expect(errors).toEqual([]);
  });

  it("changes a field's type and the bars follow", async () => {
    const { page, errors } = await s.open();
    await openPreset(page, "paper");
    const before = {
      protobuf: await stat(page, "protobuf", "mean"),
      struct: await stat(page, "struct", "mean"),
      json: await stat(page, "json", "mean"),
    };
    const bars = () =>
      page.$$eval('[data-testid="sizes-chart"] .size-bar', (els) => els.map((e) => e.getAttribute("d") ?? ""));
    const barsBefore = await bars();
    // p50, p95 and max for every format
    expect(barsBefore).toHaveLength(3 * FORMAT_IDS.length);
    const key = await shownLayoutKey(page);

    await page.click(tid("row-temperature"));
    await page.selectOption(tid("insp-type"), "float64");
    await waitForSizes(page, key);

    // float → double: protobuf fixed32 → fixed64 and struct 'f' → 'd' are 4 bytes more; the JSON text is the same
    expect(await stat(page, "protobuf", "mean")).toBeCloseTo(before.protobuf + 4, 9);
    expect(await stat(page, "struct", "mean")).toBeCloseTo(before.struct + 4, 9);
    expect(await stat(page, "json", "mean")).toBe(before.json);
    const barsAfter = await bars();
    // series order p50, p95, max; within a series the registry's order of formats
    const [json, protobuf] = [FORMAT_IDS.indexOf("json"), FORMAT_IDS.indexOf("protobuf")];
    for (const series of [0, FORMAT_IDS.length, 2 * FORMAT_IDS.length]) {
      expect(barsAfter[series + protobuf], "protobuf bar").not.toBe(barsBefore[series + protobuf]);
      expect(barsAfter[series + json], "json bar").toBe(barsBefore[series + json]);
    }
    const perf = await page.evaluate(() => window.__satpayloadPerf?.last);
    expect(perf?.layoutKey).toBe(Number(await shownLayoutKey(page)));
    expect(perf!.editToBarsMs).toBeGreaterThan(0);
    await screenshot(page, "03-type-changed");
    expect(errors).toEqual([]);
  });

  it("highlights a selected field's bytes in the byte map, and a clicked byte selects its field", async () => {
    const { page, errors } = await s.open();
    await openPreset(page, "paper");
    await page.click(tid("tab-bytemap"));
    await page.waitForSelector(tid("bytemap-hex"));
    expect(await page.locator(tid("bytemap-format")).inputValue()).toBe("protobuf");

    await page.click(tid("row-temperature"));
    await page.mouse.move(5, 700);
    const lit = () =>
      page.$$eval('[data-testid="bytemap-hex"] .hex-byte.lit', (els) => els.map((e) => e.getAttribute("data-field")));
    // protobuf: one tag byte (field 14, wire type 5) and the 4-byte float
    await expect.poll(lit).toEqual(["temperature", "temperature", "temperature", "temperature", "temperature"]);
    const litText = await page.$$eval('[data-testid="bytemap-hex"] .hex-byte.lit', (els) =>
      els.map((e) => e.textContent),
    );
    expect(litText[0]).toBe(((14 << 3) | 5).toString(16));
    await screenshot(page, "04-bytemap-selected");

    // hovering another field's legend entry lights its bytes too: field 16 needs a two-byte tag
    await page.hover(tid("bytemap-legend-pressure"));
    await expect.poll(async () => (await lit()).filter((f) => f === "pressure").length).toBe(6);

    // a click on a byte of the humidity value selects humidity in the inspector
    await page.locator('[data-testid="bytemap-hex"] .hex-byte[data-field="humidity"]').last().click();
    await expect.poll(() => page.locator(tid("insp-name")).inputValue()).toBe("Humidity");

    // Struct+Zlib: the fields are mapped in the stream before compression, the sent bytes shown apart
    await page.selectOption(tid("bytemap-format"), "struct-zlib");
    await page.waitForSelector(tid("bytemap-compressed"));
    await page.click(tid("row-temperature"));
    await page.mouse.move(5, 700);
    await expect.poll(async () => (await lit()).length).toBe(4);
    const sent = Number(await page.locator(tid("bytemap-compressed")).getAttribute("data-length"));
    expect(sent).toBeGreaterThan(100);
    expect(sent).toBeLessThan(160);
    await page.click(tid("bytemap-next"));
    await expect.poll(() => page.locator(tid("bytemap-sample")).textContent()).toBe("Sample 2 of 1000");
    await screenshot(page, "04b-bytemap-zlib");
    expect(errors).toEqual([]);
  });

  it("undoes and redoes edits with the keyboard and the buttons", async () => {
    const { page, errors } = await s.open();
    await openPreset(page, "paper");
    const protobuf = await stat(page, "protobuf", "mean");
    expect(await page.locator(tid("undo")).isDisabled()).toBe(true);

    await page.click(tid("row-humidity"));
    await page.fill(tid("insp-name"), "Relative humidity");
    await page.waitForSelector(tid("row-humidity") + " >> text=Relative humidity");
    let key = await shownLayoutKey(page);
    await page.selectOption(tid("insp-type"), "float64");
    key = await waitForSizes(page, key);
    expect(await stat(page, "protobuf", "mean")).toBeCloseTo(protobuf + 4, 9);

    await page.keyboard.press("Control+z");
    key = await waitForSizes(page, key);
    expect(await page.locator(tid("insp-type")).inputValue()).toBe("float32");
    expect(await stat(page, "protobuf", "mean")).toBe(protobuf);
    await page.keyboard.press("Control+z");
    await expect.poll(() => page.locator(tid("insp-name")).inputValue()).toBe("Humidity");
    expect(await page.locator(tid("undo")).isDisabled()).toBe(true);

    await page.keyboard.press("Control+y");
    await expect.poll(() => page.locator(tid("insp-name")).inputValue()).toBe("Relative humidity");
    key = await shownLayoutKey(page);
    await page.click(tid("redo"));
    await waitForSizes(page, key);
    expect(await page.locator(tid("insp-type")).inputValue()).toBe("float64");
    expect(await stat(page, "protobuf", "mean")).toBeCloseTo(protobuf + 4, 9);
    expect(await page.locator(tid("redo")).isDisabled()).toBe(true);

    await page.click(tid("undo"));
    await page.keyboard.press("Control+Shift+z");
    expect(await page.locator(tid("insp-type")).inputValue()).toBe("float64");
    await screenshot(page, "05-undo-redo");
    expect(errors).toEqual([]);
  });

  it("saves automatically, and after a reload the project is back", async () => {
    const { page, errors } = await s.open();
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("tree-empty"));
    const created = await savedVersion(page);
    await page.click(tid("palette-uint8"));
    await page.click(tid("palette-float32"));
    await page.fill(tid("insp-name"), "Water temperature");
    await page.fill(tid("insp-key"), "water_temp");
    await page.click(tid("project-name"));
    await page.fill(tid("project-name-input"), "Buoy v1");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(tid("project-name")).textContent()).toBe("Buoy v1");
    await waitForSaved(page, created);
    const url = page.url();
    expect(url).toMatch(/[?&]project=/);
    expect(url).not.toContain("token=");

    await page.reload();
    await page.waitForSelector(tid("designer"));
    expect(await rowKeys(page)).toEqual(["u8", "water_temp"]);
    expect(await page.locator(tid("project-name")).textContent()).toBe("Buoy v1");
    expect(await page.locator(`${tid("row-water_temp")} .name`).textContent()).toBe("Water temperature");
    await waitForSizes(page);
    expect(await stat(page, "struct", "max")).toBe(5);
    await screenshot(page, "06-reloaded");

    // the layout file a user commits: downloaded from the host's own text of the saved layout
    const [download] = await Promise.all([page.waitForEvent("download"), page.click(tid("export-layout"))]);
    expect(download.suggestedFilename()).toMatch(/\.satlayout\.json$/);
    const file = parseLayout(JSON.parse(await readFile(await download.path(), "utf8")));
    expect(file.fields.map((f) => [f.key, f.name])).toEqual([
      ["u8", "u8"],
      ["water_temp", "Water temperature"],
    ]);

    await page.click(tid("home"));
    await page.waitForSelector(tid("recent-list"));
    expect(await page.locator(tid("recent-list")).textContent()).toContain("Buoy v1");
    expect(errors).toEqual([]);
  });

  it("notices a save from another window and lets the user keep their version", async () => {
    const a = await s.open();
    await openPreset(a.page, "kineis-tracker");
    const id = new URL(a.page.url()).searchParams.get("project")!;
    const b = await s.open();
    await b.page.goto(`${s.server.origin}/?project=${id}#token=${s.server.token}`);
    await b.page.waitForSelector(tid("designer"));
    await waitForSizes(b.page);

    const v0 = await savedVersion(a.page);
    await a.page.fill(tid("layout-name"), "Tracker, edited in A");
    const v1 = await waitForSaved(a.page, v0);
    await b.page.waitForSelector(tid("conflict-banner"), { timeout: 20_000 });
    expect(await b.page.locator(tid("save-state")).getAttribute("data-status")).toBe("conflict");
    await screenshot(b.page, "08-conflict");

    await b.page.fill(tid("layout-name"), "Tracker, edited in B");
    await b.page.click(tid("conflict-overwrite"));
    await waitForSaved(b.page, v1);
    const saved = (await s.server.host.dispatch("projects.open", { id })) as { layout: { name: string } };
    expect(saved.layout.name).toBe("Tracker, edited in B");
    expect(a.errors).toEqual([]);
    expect(b.errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
  });

  it("shows validation next to the field, keeps sizing the last valid layout and saves only valid ones", async () => {
    const { page, errors } = await s.open();
    await openPreset(page, "paper");
    const key = await shownLayoutKey(page);
    const version = await savedVersion(page);
    await page.click(tid("row-rssi"));
    // half-typed numbers stay in the form, with what is wrong and what to write
    await page.fill(tid("insp-max"), "1e");
    expect(await page.locator(`${tid("insp-max")} + .field-msg`).textContent()).toBe(
      '"1e" is not a number; write digits, e.g. 12, -0.5 or 1e3.',
    );
    // a complete number that breaks a rule reaches the layout, and parseLayout's sentence sits under it
    await page.fill(tid("insp-max"), "0");
    await expect
      .poll(() =>
        page
          .locator(`${tid("insp-max")} ~ [data-testid="field-issue"]`)
          .first()
          .textContent(),
      )
      .toBe("Maximum is 0; it must be greater than the minimum (0).");
    await page.waitForSelector(`${tid("save-state")}[data-status="invalid"]`);
    expect(await page.locator(tid("compute-state")).textContent()).toBe("showing the last valid layout");
    expect(await shownLayoutKey(page)).toBe(key);
    expect(await page.locator(`${tid("row-rssi")} .issue-dot`).count()).toBe(1);
    await screenshot(page, "09-validation");

    // parseLayout flags the second of two equal keys; the edited (first) one shows the same sentence
    await page.fill(tid("insp-key"), "ble-m");
    await expect
      .poll(() =>
        page
          .locator(`${tid("insp-key")} ~ [data-testid="field-issue"]`)
          .first()
          .textContent(),
      )
      .toBe(
        'Key "ble-m" is used by both field "RSSI" and field "BLE source node"; the fields of one message need different keys, because the key names the value on the wire.',
      );
    await page.keyboard.press("Control+z");
    await expect.poll(() => page.locator(tid("insp-key")).inputValue()).toBe("rssi");
    await page.fill(tid("insp-max"), "99");
    await waitForSizes(page, key);
    expect(await waitForSaved(page, version)).toBeGreaterThan(version);
    expect(await page.locator(`${tid("row-rssi")} .issue-dot`).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("shows a clear error for a corrupted or invalid layout file", async () => {
    const { page, errors } = await s.open();
    await page.waitForSelector(tid("start-screen"));
    const projectCount = async () =>
      ((await s.server.host.dispatch("projects.list", { limit: 200 })) as unknown[]).length;
    const before = await projectCount();
    await page.setInputFiles(tid("file-input"), {
      name: "broken.satlayout.json",
      mimeType: "application/json",
      buffer: Buffer.from('{"format": "satlayout", "version": 1, "name": "Broken", "fields": [{"id": '),
    });
    await page.waitForSelector(tid("start-error"));
    const text = (await page.locator(tid("start-error")).textContent()) ?? "";
    expect(text).toContain('Could not open "broken.satlayout.json"');
    expect(await page.locator(tid("start-screen")).isVisible()).toBe(true);
    await screenshot(page, "07-corrupted-file");

    const invalid = {
      format: "satlayout",
      version: 1,
      name: "Bad bits",
      fields: [{ id: "a", key: "a", name: "A", type: { kind: "int", bits: 12, signed: false } }],
    };
    await page.setInputFiles(tid("file-input"), {
      name: "bad.satlayout.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(invalid)),
    });
    await expect
      .poll(async () => (await page.locator(tid("start-error")).textContent()) ?? "")
      .toContain('Field "A": Bits is 12; allowed: 8, 16, 32, 64.');
    // a failed import must not leave a project behind
    expect(await projectCount()).toBe(before);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });
});

interface Saved {
  version: number;
  layout: { fields: { key: string; name: string; type: Record<string, unknown> }[] };
}

/** What the host has for the page's project. */
async function hostLayout(page: Page): Promise<Saved> {
  const id = new URL(page.url()).searchParams.get("project")!;
  return (await s.server.host.dispatch("projects.open", { id })) as Saved;
}

/**
 * The version the host holds once `holds` is true of its layout and the header says Saved. Autosave may
 * keep a burst of edits in one version or in several (on a loaded machine, a new field is saved before
 * its rename), so the version to compare with later is read from the host, not from the first save.
 */
async function versionHolding(page: Page, holds: (saved: Saved) => boolean): Promise<number> {
  await expect.poll(async () => holds(await hostLayout(page)), { timeout: 20_000 }).toBe(true);
  await page.waitForSelector(`${tid("save-state")}[data-status="saved"]`);
  return (await hostLayout(page)).version;
}

/** The texts shown under a control: held text's message and the layout's issues. */
const messagesAt = (page: Page, testId: string) => page.locator(`${tid(testId)} ~ .field-msg`).allTextContents();

const header = async (page: Page) => ({
  status: await page.locator(tid("save-state")).getAttribute("data-status"),
  text: (await page.locator(tid("save-state")).textContent())?.trim(),
});

/**
 * Makes the designer try to save now (a download must contain every edit): with a problem left it
 * refuses and says so, so "the host still has the old layout" is checked after a real attempt.
 */
async function trySave(page: Page): Promise<void> {
  await page.click(tid("export-layout"));
  await expect
    .poll(() => page.locator(tid("notice")).textContent())
    .toBe("Fix the layout problems first: the file is written from the saved layout.");
}

describe("the designer never says Saved for an edit it did not keep (issue #23)", SCENARIO, () => {
  const COUNT_MESSAGE =
    "Count is 100,000; the most is 65,535, because Struct writes a variable count as a uint16, SBE counts group entries in a uint16 (numInGroup) and nanopb and the C export keep array sizes in 16 bits.";
  const SCALE_MESSAGE =
    "Scale is 0; it must be more than 0, because value = raw × scale + offset needs a step greater than 0.";

  it("shows Count 100000 and Scale 0 at their fields, says Not saved, and has them back after a reload", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    // leaving with edits the host does not have asks first: accept, as a user reloading would
    page.on("dialog", (d) => void d.accept());
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("tree-empty"));
    const created = await savedVersion(page);
    await page.click(tid("palette-array"));
    await page.click(tid("palette-fixed"));
    await waitForSaved(page, created);
    const v1 = await versionHolding(page, (saved) => saved.layout.fields.length === 2);
    expect((await hostLayout(page)).layout.fields.map((f) => f.key)).toEqual(["values", "value"]);

    await page.click(tid("row-values"));
    await page.fill(tid("insp-maxCount"), "100000");
    await expect.poll(() => messagesAt(page, "insp-maxCount")).toEqual([COUNT_MESSAGE]);
    await expect
      .poll(() => header(page))
      .toEqual({ status: "invalid", text: "Not saved: 1 problem to fix before saving" });
    await page.click(tid("row-value"));
    await page.fill(tid("insp-scale"), "0");
    await expect.poll(() => messagesAt(page, "insp-scale")).toEqual([SCALE_MESSAGE]);
    await expect
      .poll(() => header(page))
      .toEqual({ status: "invalid", text: "Not saved: 2 problems to fix before saving" });
    // both rows are marked, and the sizes stay on the last layout that was valid
    expect(await page.locator(`${tid("row-values")} .issue-dot`).count()).toBe(1);
    expect(await page.locator(`${tid("row-value")} .issue-dot`).count()).toBe(1);
    await screenshot(page, "23a-rejected-values");

    // a save is attempted and refused: the host keeps what it had
    await trySave(page);
    const kept = await hostLayout(page);
    expect(kept.version).toBe(v1);
    expect(kept.layout.fields[0]!.type).toMatchObject({ maxCount: 3 });
    expect(kept.layout.fields[1]!.type).toMatchObject({ scale: 0.01 });

    // a reload brings both back, at their fields, with the header still saying Not saved
    await page.reload();
    await page.waitForSelector(tid("designer"));
    await expect
      .poll(() => header(page))
      .toEqual({ status: "invalid", text: "Not saved: 2 problems to fix before saving" });
    await page.click(tid("row-values"));
    expect(await page.inputValue(tid("insp-maxCount"))).toBe("100000");
    expect(await messagesAt(page, "insp-maxCount")).toEqual([COUNT_MESSAGE]);
    await page.click(tid("row-value"));
    expect(await page.inputValue(tid("insp-scale"))).toBe("0");
    expect(await messagesAt(page, "insp-scale")).toEqual([SCALE_MESSAGE]);

    // text that is not a number is kept too, through a reload; the draft still holds the refused
    // 100,000 behind it, and both are said
    await page.click(tid("row-values"));
    await page.fill(tid("insp-maxCount"), "12x");
    await expect
      .poll(() => messagesAt(page, "insp-maxCount"))
      .toEqual(['"12x" is not a number; write digits, e.g. 12, -0.5 or 1e3.', COUNT_MESSAGE]);
    await expect.poll(() => header(page)).toMatchObject({ status: "invalid" });
    await page.reload();
    await page.waitForSelector(tid("designer"));
    await page.click(tid("row-values"));
    expect(await page.inputValue(tid("insp-maxCount"))).toBe("12x");
    await expect.poll(() => header(page)).toMatchObject({ status: "invalid" });

    // fixed: saved, and what the host has is what was typed
    await page.fill(tid("insp-maxCount"), "10000");
    await page.click(tid("row-value"));
    await page.fill(tid("insp-scale"), "0.5");
    await waitForSaved(page, v1);
    const saved = await hostLayout(page);
    expect(saved.layout.fields[0]!.type).toMatchObject({ maxCount: 10000 });
    expect(saved.layout.fields[1]!.type).toMatchObject({ scale: 0.5 });
    expect(errors).toEqual([]);
  });

  it("derives a duplicate's key from its name: the copy of Latitude renamed Longitude ships longitude", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("tree-empty"));
    const created = await savedVersion(page);
    await page.click(tid("palette-float32"));
    await page.fill(tid("insp-name"), "Latitude");
    await page.waitForSelector(tid("row-latitude"));
    await waitForSaved(page, created);
    await expect.poll(async () => (await hostLayout(page)).layout.fields[0]?.key).toBe("latitude");
    // reopened: Latitude is a saved field now, its key a wire contract; its copy is a new field
    await page.reload();
    await page.waitForSelector(tid("designer"));
    const v1 = await savedVersion(page);

    await page.click(tid("row-latitude"));
    await page.click(tid("field-duplicate"));
    await page.waitForSelector(tid("row-latitude_copy"));
    expect(await page.inputValue(tid("insp-name"))).toBe("Latitude (copy)");
    await page.fill(tid("insp-name"), "Longitude");
    await expect.poll(() => page.inputValue(tid("insp-key"))).toBe("longitude");
    expect(await rowKeys(page)).toEqual(["latitude", "longitude"]);
    await screenshot(page, "23b-duplicate-renamed");
    await waitForSaved(page, v1);
    // the copy may be saved before its rename: wait until the host has two fields, the second renamed
    await versionHolding(page, (held) => held.layout.fields[1]?.name === "Longitude");
    const saved = await hostLayout(page);
    expect(saved.layout.fields.map((f) => [f.name, f.key])).toEqual([
      ["Latitude", "latitude"],
      ["Longitude", "longitude"],
    ]);
    // every export carries the copy under its own name
    const generated = (await s.server.host.dispatch("exports.generate", {
      projectId: new URL(page.url()).searchParams.get("project")!,
      exporterIds: ["proto", "json-schema"],
    })) as { files: { path: string; content: string }[] };
    const text = generated.files.map((f) => f.content).join("\n");
    expect(text).toContain("longitude");
    expect(text).not.toContain("latitude_copy");

    // a key typed by hand is the user's: a later rename leaves it
    await page.fill(tid("insp-key"), "lon");
    await page.fill(tid("insp-name"), "Longitude (WGS 84)");
    await page.waitForSelector(tid("row-lon"));
    expect(await page.inputValue(tid("insp-key"))).toBe("lon");
    // and the original keeps its key on a rename (saved field)
    await page.click(tid("row-latitude"));
    await page.fill(tid("insp-name"), "Latitude (WGS 84)");
    expect(await page.inputValue(tid("insp-key"))).toBe("latitude");
    expect(errors).toEqual([]);
  });

  it("refuses names that show nothing (spaces, a zero-width space) at the field and the row still reads", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("tree-empty"));
    const created = await savedVersion(page);
    await page.click(tid("palette-uint8"));
    await page.fill(tid("insp-name"), "Depth");
    await page.waitForSelector(tid("row-depth"));
    await waitForSaved(page, created);
    const v1 = await versionHolding(page, (saved) => saved.layout.fields[0]?.name === "Depth");
    await expect.poll(async () => (await hostLayout(page)).layout.fields[0]?.name).toBe("Depth");

    for (const [name, shown] of [
      ["   ", "U+0020 U+0020 U+0020"],
      ["\u200b", "U+200B"],
      ["\u3164", "U+3164"],
    ]) {
      await page.fill(tid("insp-name"), name!);
      await expect
        .poll(() => messagesAt(page, "insp-name"))
        .toEqual([`Name holds only invisible characters (${shown}); it needs at least one visible character.`]);
      await expect
        .poll(() => header(page))
        .toEqual({ status: "invalid", text: "Not saved: 1 problem to fix before saving" });
    }
    // the row is not blank: it says it has no name, shows its key and is marked
    const row = page.locator('[data-testid="layout-tree"] [role="treeitem"]').first();
    expect(await row.locator(".name").textContent()).toBe("(no name)");
    expect(await row.locator(".issue-dot").count()).toBe(1);
    await screenshot(page, "23c-blank-name");
    await trySave(page);
    expect((await hostLayout(page)).version).toBe(v1);
    expect((await hostLayout(page)).layout.fields[0]?.name).toBe("Depth");

    await page.fill(tid("insp-name"), "Water depth");
    await waitForSaved(page, v1);
    expect((await hostLayout(page)).layout.fields[0]?.name).toBe("Water depth");
    expect(errors).toEqual([]);
  });

  it("says what is wrong with a file in sentences, and opens layouts of 2 000 fields", async () => {
    const { page, errors } = await s.open();
    await page.waitForSelector(tid("start-screen"));
    const bad = {
      format: "satlayout",
      version: 2,
      name: "Bad",
      fields: [
        { id: "a", key: "a", name: "A", type: { kind: "int", bits: 12, signed: false } },
        { id: "b", key: "b", name: "B", type: { kind: "bool" }, units: "m" },
      ],
    };
    await page.setInputFiles(tid("file-input"), {
      name: "bad.satlayout.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(bad)),
    });
    await page.waitForSelector(tid("start-error"));
    const text = (await page.locator(tid("start-error")).textContent()) ?? "";
    for (const sentence of [
      "Version is 2; it must be 1, because this SatPayload Studio reads version 1 layout files",
      'Field "A": Bits is 12; allowed: 8, 16, 32, 64.',
      'Field "B": The field has a property "units" that layout files do not have (did you mean "unit"?)',
    ])
      expect(text).toContain(sentence);
    // no validator's raw words and no bare paths
    expect(text).not.toMatch(/Invalid input|Too small|Too big|expected|fields\[\d+\]/);
    await screenshot(page, "23d-file-errors");

    // the rules beyond the shape: a range upside down, a name that shows nothing, a key used twice
    const rules = {
      format: "satlayout",
      version: 1,
      name: "Rules",
      fields: [
        { id: "a", key: "a", name: "A", type: { kind: "int", bits: 8, signed: false, min: 10, max: 5 } },
        { id: "b", key: "a", name: "\u200b", type: { kind: "bool" } },
      ],
    };
    await page.setInputFiles(tid("file-input"), {
      name: "rules.satlayout.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(rules)),
    });
    await expect
      .poll(async () => (await page.locator(tid("start-error")).textContent()) ?? "")
      .toContain("rules.satlayout.json is not a valid SatPayload layout");
    const ruleText = (await page.locator(tid("start-error")).textContent()) ?? "";
    for (const sentence of [
      'Field "A": Maximum is 5; it must be greater than the minimum (10).',
      'Field #2 (key "a"): Name holds only invisible characters (U+200B); it needs at least one visible character.',
      'Field #2 (key "a"): Key "a" is used by both field "A" and field #2 (key "a"); the fields of one message need different keys',
    ])
      expect(ruleText).toContain(sentence);

    const fields = Array.from({ length: 2000 }, (_, i) => ({
      id: `f${i}`,
      key: `f${i}`,
      name: `Field ${i}`,
      type: { kind: "int", bits: 16, signed: true },
    }));
    await page.setInputFiles(tid("file-input"), {
      name: "wide.satlayout.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify({ format: "satlayout", version: 1, name: "Wide", fields })),
    });
    await page.waitForSelector(tid("designer"), { timeout: 120_000 });
    expect(await page.locator(tid("field-count")).textContent()).toBe("2000");
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  }, 180_000);
});
