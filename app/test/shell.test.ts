import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY } from "#host/api/contract.ts";
import { tempDir } from "#host/test/support.ts";
import { LEAVE_PROMPT, wireLeavePrompt } from "../leavePrompt.ts";
import { menuTemplate, type MenuCommand } from "../menu.ts";
import { appProtocolResponse } from "../protocol.ts";

describe("app:// protocol", () => {
  it("serves the renderer with types and the CSP, and nothing outside it", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(path.join(dir, "index.html"), "<html></html>");
    writeFileSync(path.join(dir, "assets", "worker-1.js"), "self.onmessage=null");
    const js = await appProtocolResponse(dir, "app://renderer/assets/worker-1.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(await js.text()).toBe("self.onmessage=null");
    expect(await (await appProtocolResponse(dir, "app://renderer/designer/field/3")).text()).toBe("<html></html>");
    expect((await appProtocolResponse(dir, "app://renderer/assets/..%2f..%2fsecret")).status).toBe(400);
    expect((await appProtocolResponse(dir, "app://other/index.html")).status).toBe(404);
    expect((await appProtocolResponse(dir, "app://renderer/missing.css")).status).toBe(404);
    expect((await appProtocolResponse(tempDir(), "app://renderer/index.html")).status).toBe(503);
  });
});

describe("application menu", () => {
  type Item = {
    label?: string;
    role?: string;
    accelerator?: string;
    registerAccelerator?: boolean;
    click?: () => void;
    submenu?: Item[];
  };
  const build = (platform: NodeJS.Platform) => {
    const commands: MenuCommand[] = [];
    const t = menuTemplate(
      { command: (c) => commands.push(c), about: () => {}, openDataDir: () => {} },
      platform,
    ) as Item[];
    return { t, commands };
  };

  it("has File, Edit, View and Help with the usual shortcuts, routed to the renderer", () => {
    const { t, commands } = build("linux");
    const items = (label: string) => t.find((m) => m.label === label)!.submenu!;
    const shortcut = (label: string, item: string) => items(label).find((i) => i.label === item)?.accelerator;
    expect(shortcut("&File", "Open…")).toBe("CmdOrCtrl+O");
    expect(shortcut("&File", "Save As…")).toBe("CmdOrCtrl+Shift+S");
    expect(shortcut("&Edit", "Undo")).toBe("CmdOrCtrl+Z");
    expect(shortcut("&Edit", "Redo")).toBe("Ctrl+Y");
    expect(
      items("&Edit")
        .map((i) => i.role)
        .filter(Boolean),
    ).toEqual(["cut", "copy", "paste", "selectAll"]);
    expect(
      items("&View")
        .map((i) => i.role)
        .filter(Boolean),
    ).toEqual(["reload", "toggleDevTools", "resetZoom", "zoomIn", "zoomOut", "togglefullscreen"]);
    expect(items("&File").at(-1)!.role).toBe("quit");
    for (const m of t)
      for (const i of m.submenu ?? []) if (i.click && i.accelerator) expect(i.registerAccelerator, i.label).toBe(false);
    for (const m of t) for (const i of m.submenu ?? []) if (i.accelerator) i.click?.();
    expect(commands).toEqual(["new", "open", "save", "saveAs", "undo", "redo", "toggleTheme"]);
  });

  it("adds the app menu on macOS and moves Quit there", () => {
    const { t } = build("darwin");
    expect(t[0]).toEqual({ role: "appMenu" });
    expect(t[1]!.submenu!.some((i) => i.role === "quit")).toBe(false);
  });
});

describe("leaving a window with unsaved edits", () => {
  // what Electron does with a renderer's beforeunload veto: emits will-prevent-unload; preventDefault lets the unload go ahead
  const wire = (answer: number) => {
    let listener: ((e: { preventDefault(): void }) => void) | undefined;
    const asked: unknown[] = [];
    wireLeavePrompt({ on: (_event, l) => (listener = l) }, (o) => (asked.push(o), answer));
    let allowed = false;
    listener!({ preventDefault: () => (allowed = true) });
    return { allowed, asked };
  };

  it("asks, and leaves only when the user picks Leave", () => {
    const leave = wire(0);
    expect(leave.asked).toEqual([LEAVE_PROMPT]);
    expect(leave.allowed).toBe(true);
    expect(wire(1).allowed).toBe(false);
    // Escape or closing the box answers the cancel button: stay
    expect(LEAVE_PROMPT.buttons![LEAVE_PROMPT.cancelId!]).toBe("Stay");
  });
});
