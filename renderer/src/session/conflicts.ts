// Two windows on one project: another window's save puts this one in conflict before its next save fails (host
// events), and the user resolves it by taking the other version or writing theirs over it.
import { flushSave, markConflict, noteVersionWhileSaving } from "./autosave.ts";
import { enterDesigner } from "./projects.ts";
import { setSavedLayout } from "./savedLayout.ts";
import { hostApi, setSave, useSession } from "./sessionStore.ts";
import { asHostError } from "../host/errors.ts";
import { useDesigner } from "../state/layoutStore.ts";

/** After a conflict: take the other window's version, or write ours over it. */
export async function resolveConflict(choice: "reload" | "overwrite"): Promise<void> {
  const id = useDesigner.getState().projectId;
  if (!id) return;
  try {
    const latest = await hostApi().call("projects.open", { id });
    if (choice === "reload") {
      enterDesigner(latest, false);
      return;
    }
    useSession.setState({ version: latest.version });
    setSave("pending");
    setSavedLayout(null);
    await flushSave();
  } catch (e) {
    setSave("conflict", `Could not resolve: ${asHostError(e).describe()}`);
  }
}

/** Host events: another window saving the open project puts us in conflict before our next save fails. */
export function listenToHost(): () => void {
  return hostApi().on("project.saved", (p) => {
    const d = useDesigner.getState();
    if (p.id !== d.projectId) return;
    if (noteVersionWhileSaving(p.version)) return;
    if (p.version > useSession.getState().version) markConflict("Saved in another window.");
  });
}
