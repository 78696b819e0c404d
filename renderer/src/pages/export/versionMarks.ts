// Naming a version and marking the one the devices run: the host keeps both through pruning and autosave, and
// the evolution check compares with the deployed version by default.
import { loadVersions, useExport } from "./exportStore.ts";
import { asHostError } from "../../host/errors.ts";
import { hostApi } from "../../session/sessionStore.ts";
import { useDesigner } from "../../state/layoutStore.ts";

async function change(what: string, call: (id: string) => Promise<unknown>): Promise<boolean> {
  const id = useDesigner.getState().projectId;
  if (!id) return false;
  try {
    await call(id);
    await loadVersions();
    return true;
  } catch (e) {
    useExport.setState({ diffError: `${what}: ${asHostError(e).describe()}` });
    return false;
  }
}

/** Marks `version` deployed (null: none) and compares with it from now on. */
export async function markDeployed(version: number | null): Promise<void> {
  const ok = await change("The deployed version could not be set", (id) =>
    hostApi().call("projects.setDeployed", { id, version }),
  );
  if (ok && version !== null) useExport.setState({ baseVersion: version });
}

/** Names `version` (a blank name clears it). */
export function nameVersion(version: number, label: string): Promise<boolean> {
  return change("The version could not be named", (id) =>
    hostApi().call("projects.labelVersion", { id, version, label: label.trim() ? label.trim() : null }),
  );
}
