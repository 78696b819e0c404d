// The application menu. Items that act on the design are sent to the renderer as "app.menu"
// commands; their accelerators are shown but not registered so the page's own key bindings (which
// browser mode needs anyway) stay the single implementation.
import type { MenuItemConstructorOptions } from "electron";
import type { EventPayload } from "#host/api/contract.ts";

export type MenuCommand = EventPayload<"app.menu">["command"];

export interface MenuActions {
  command(command: MenuCommand): void;
  about(): void;
  openDataDir(): void;
}

export function menuTemplate(
  actions: MenuActions,
  platform: NodeJS.Platform = process.platform,
): MenuItemConstructorOptions[] {
  const mac = platform === "darwin";
  const cmd = (label: string, command: MenuCommand, accelerator: string): MenuItemConstructorOptions => ({
    label,
    accelerator,
    registerAccelerator: false,
    click: () => actions.command(command),
  });
  const template: MenuItemConstructorOptions[] = [
    {
      label: "&File",
      submenu: [
        cmd("New", "new", "CmdOrCtrl+N"),
        cmd("Open…", "open", "CmdOrCtrl+O"),
        { type: "separator" },
        cmd("Save", "save", "CmdOrCtrl+S"),
        cmd("Save As…", "saveAs", "CmdOrCtrl+Shift+S"),
        ...(mac ? [] : [{ type: "separator" } as const, { role: "quit" } as const]),
      ],
    },
    {
      label: "&Edit",
      submenu: [
        cmd("Undo", "undo", "CmdOrCtrl+Z"),
        cmd("Redo", "redo", mac ? "Cmd+Shift+Z" : "Ctrl+Y"),
        { type: "separator" },
        { role: "cut" },
        { role: "copy" },
        { role: "paste" },
        { role: "selectAll" },
      ],
    },
    {
      label: "&View",
      submenu: [
        { role: "reload" },
        { role: "toggleDevTools" },
        { type: "separator" },
        { role: "resetZoom" },
        { role: "zoomIn" },
        { role: "zoomOut" },
        { type: "separator" },
        { role: "togglefullscreen" },
        cmd("Toggle Theme", "toggleTheme", "CmdOrCtrl+Shift+L"),
      ],
    },
    {
      role: "help",
      label: "&Help",
      submenu: [
        { label: "About SatPayload Studio", click: () => actions.about() },
        { label: "Open Data Folder", click: () => actions.openDataDir() },
      ],
    },
  ];
  return mac ? [{ role: "appMenu" }, ...template] : template;
}
