// Layout files: a file dropped or picked on the start screen opens as a new project; the open project's layout is
// written to a file (a download in the browser, the native save dialog in Electron).
import { flushSave } from "./autosave.ts";
import { withLoading } from "./projects.ts";
import { hostApi, useSession } from "./sessionStore.ts";
import { downloadText } from "../download.ts";
import { asHostError } from "../host/errors.ts";
import { useDesigner } from "../state/layoutStore.ts";

export async function importFile(file: File): Promise<boolean> {
  if (file.size > 5_000_000) {
    useSession.setState({
      startError: { title: `Could not open "${file.name}"`, detail: "The file is larger than 5 MB." },
    });
    return false;
  }
  const content = await file.text();
  return withLoading(`Could not open "${file.name}"`, () =>
    hostApi().call("files.importLayout", { fileName: file.name, content }),
  );
}

/** Electron only: the native open dialog. */
export function openFileDialog(): Promise<boolean> {
  return withLoading("Could not open the file", () => hostApi().call("files.openLayout", {}));
}

/** Browser: a download of the layout file; Electron: the native save dialog. */
export async function exportLayout(): Promise<void> {
  const id = useDesigner.getState().projectId;
  if (!id) return;
  await flushSave();
  const status = useSession.getState().save.status;
  if (status !== "saved") {
    useSession.setState({
      notice: { kind: "error", text: "Fix the layout problems first: the file is written from the saved layout." },
    });
    return;
  }
  try {
    if (useSession.getState().shell === "electron") {
      const res = await hostApi().call("files.saveLayout", { id });
      if (res) useSession.setState({ notice: { kind: "info", text: `Saved to ${res.path}` } });
      return;
    }
    const { fileName, content } = await hostApi().call("files.layoutText", { id });
    downloadText(content, fileName, "application/json");
  } catch (e) {
    useSession.setState({ notice: { kind: "error", text: `Export failed: ${asHostError(e).describe()}` } });
  }
}
