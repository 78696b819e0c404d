// The project's name: renamed from the designer's header, and following the layout's own name when a save
// carries a new one (code, exports and runs use the layout's name, so the two are one).
import { codePoints, hasVisibleCharacter } from "#codecs";
import type { ProjectSummary } from "#host/api/contract.ts";
import { hostApi, useSession } from "./sessionStore.ts";
import { asHostError } from "../host/errors.ts";
import { useDesigner } from "../state/layoutStore.ts";

/** One name: a layout saved under a new name renames its project (code, exports and runs use the layout's). */
export async function nameFollowsLayout(id: string, layoutName: string): Promise<void> {
  const name = layoutName.trim();
  const d = useDesigner.getState();
  if (!name || d.projectId !== id || name === d.projectName) return;
  try {
    const res = await hostApi().call("projects.rename", { id, name });
    if (useDesigner.getState().projectId === id) useDesigner.getState().setProjectName(res.name);
  } catch (e) {
    useSession.setState({
      notice: { kind: "error", text: `The project keeps its old name: ${asHostError(e).describe()}` },
    });
  }
}

export async function renameProject(name: string): Promise<void> {
  const id = useDesigner.getState().projectId;
  const trimmed = name.trim();
  if (!id || trimmed === useDesigner.getState().projectName) return;
  if (!hasVisibleCharacter(trimmed)) {
    // the name field closes on Enter or blur: say why the old name is back rather than drop the edit silently
    useSession.setState({
      notice: {
        kind: "error",
        text: `The project keeps its name: the new one ${trimmed ? `holds only invisible characters (${codePoints(trimmed)})` : "is empty"}; a name needs at least one visible character.`,
      },
    });
    return;
  }
  const before = useDesigner.getState().projectName;
  useDesigner.getState().setProjectName(trimmed);
  try {
    const res: ProjectSummary = await hostApi().call("projects.rename", { id, name: trimmed });
    useDesigner.getState().setProjectName(res.name);
    // the layout carries the same name (the autosave stores it): headers, exports and runs follow
    useDesigner.getState().edit((l) => (l.name === res.name ? l : { ...l, name: res.name }));
  } catch (e) {
    useDesigner.getState().setProjectName(before);
    useSession.setState({ notice: { kind: "error", text: `Rename failed: ${asHostError(e).describe()}` } });
  }
}
