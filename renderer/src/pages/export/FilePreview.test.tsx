// @vitest-environment happy-dom
// The previewed file can be saved on its own: "Download this file" hands the browser exactly that file's
// text under its own name (no folder), so a firmware engineer need not unpack a 49-file zip for one header.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ExportFileView, useExport } from "./exportStore.ts";
import { FilePreview } from "./FilePreview.tsx";

const FILES: ExportFileView[] = [
  { path: "tracker_fix.h", content: "/* types */\n", language: "h", exporter: "c-struct" },
  {
    path: "tracker_fix_esp32/src/tracker_fix_struct.c",
    content: "int pack_tracker_fix(void) { return 0; }\n",
    language: "c",
    exporter: "firmware-esp32",
  },
];

const initial = useExport.getState();
let saved: { name: string; blob: Blob }[] = [];

beforeEach(() => {
  saved = [];
  const blobs = new Map<string, Blob>();
  // what the browser is handed: the object URL's blob and the anchor's download name
  vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, b as Blob);
    return url;
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.getAttribute("href")!)! });
  });
  useExport.setState({
    ...initial,
    selected: ["c-struct", "firmware-esp32"],
    generated: { files: FILES, problems: [] },
    previewPath: FILES[1]!.path,
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useExport.setState(initial, true);
});

describe("FilePreview", () => {
  it("downloads the previewed file alone, under its own name and with its exact text", async () => {
    render(<FilePreview />);
    fireEvent.click(screen.getByRole("button", { name: "Download this file" }));
    expect(saved.map((s) => s.name)).toEqual(["tracker_fix_struct.c"]);
    expect(await saved[0]!.blob.text()).toBe(FILES[1]!.content);
    expect(useExport.getState().flash).toBe("Downloaded tracker_fix_struct.c");
  });

  it("downloads whichever file is previewed", async () => {
    render(<FilePreview />);
    fireEvent.click(screen.getByTestId("export-file-tracker_fix.h"));
    fireEvent.click(screen.getByTestId("download-file"));
    expect(saved.map((s) => s.name)).toEqual(["tracker_fix.h"]);
    expect(await saved[0]!.blob.text()).toBe("/* types */\n");
  });
});
