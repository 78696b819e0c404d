// Commands on the selected field: the button twins of dragging (move, nest, un-nest) plus duplicate and delete.
import { deleteField, duplicate, moveDown, moveIntoGroupAbove, moveOutOfGroup, moveUp } from "./edits/actions.ts";
import { useDesigner } from "../../state/layoutStore.ts";
import { canIndent, locate, siblingsOf } from "../../state/tree.ts";
import { Icon, type IconName } from "../../ui/Icon.tsx";

export function TreeToolbar() {
  const state = useDesigner((s) => {
    const id = s.selectedId;
    const fields = s.history.present.fields;
    const at = id ? locate(fields, id) : undefined;
    if (!id || !at) return null;
    const n = siblingsOf(fields, at.parentId).length;
    return `${id}|${at.index > 0 ? 1 : 0}${at.index < n - 1 ? 1 : 0}${canIndent(fields, id) ? 1 : 0}${at.parentId !== null ? 1 : 0}`;
  });
  const [id, flags] = state ? (state.split("|") as [string, string]) : [null, "0000"];
  const on = (i: number) => id !== null && flags[i] === "1";
  const btn = (
    label: string,
    keys: string,
    testId: string,
    enabled: boolean,
    run: (id: string) => void,
    icon: IconName,
  ) => (
    <button
      type="button"
      className="icon-btn"
      title={`${label} (${keys})`}
      aria-label={label}
      data-testid={testId}
      disabled={!enabled}
      onClick={() => id && run(id)}
    >
      <Icon name={icon} />
    </button>
  );
  return (
    <span className="tree-toolbar" role="toolbar" aria-label="Selected field">
      {btn("Move up", "Alt+↑", "field-up", on(0), moveUp, "up")}
      {btn("Move down", "Alt+↓", "field-down", on(1), moveDown, "down")}
      {btn("Move into the group above", "Alt+→", "field-indent", on(2), moveIntoGroupAbove, "indent")}
      {btn("Move out of the group", "Alt+←", "field-outdent", on(3), moveOutOfGroup, "outdent")}
      {btn("Duplicate", "Ctrl+D", "field-duplicate", id !== null, duplicate, "duplicate")}
      {btn("Delete", "Del", "field-delete", id !== null, deleteField, "delete")}
    </span>
  );
}
