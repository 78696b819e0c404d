// One row of the layout tree: drag handle, colour, type, name and key; on focus, the keyboard equivalents of dragging.
import { useSortable } from "@dnd-kit/sortable";
import { memo, useCallback, useEffect, useRef, type KeyboardEvent } from "react";
import { hasVisibleCharacter, type Field } from "#codecs";
import { rowDndId } from "./dnd.ts";
import { deleteField, duplicate, moveDown, moveIntoGroupAbove, moveOutOfGroup, moveUp } from "./edits/actions.ts";
import { useDesigner } from "../../state/layoutStore.ts";
import { typeBadge } from "../../ui/format.ts";
import { Icon } from "../../ui/Icon.tsx";

export interface RowProps {
  field: Field;
  /** keys from the top level, joined with "." (stable test hook: row-gps.lat) */
  keyPath: string;
  depth: number;
  color: string;
  hasIssues: boolean;
  selected: boolean;
  drop: "before" | "after" | "into" | null;
  /** moves the selection to the row above or below this one (the same function for every row) */
  onArrow(fromId: string, delta: -1 | 1): void;
}

/** Drawn again only when one of its props changes: a keystroke in one field redraws that field's row alone. */
export const FieldRow = memo(function FieldRow(p: RowProps) {
  const { field } = p;
  // a name of spaces or zero-width characters is refused by the layout; until fixed the row still reads
  const named = hasVisibleCharacter(field.name);
  const { attributes, listeners, setNodeRef, isDragging } = useSortable({
    id: rowDndId(field.id),
    data: { fieldId: field.id },
  });
  const select = useDesigner((s) => s.select);
  const hover = useDesigner((s) => s.hover);
  const linked = useDesigner((s) => s.hoveredId === field.id);
  const own = useRef<HTMLLIElement | null>(null);
  const ref = useCallback(
    (el: HTMLLIElement | null) => {
      own.current = el;
      setNodeRef(el);
    },
    [setNodeRef],
  );

  // keyboard commands move the selection (duplicate, delete, byte clicks): focus follows it, unless the
  // user is somewhere else on purpose (palette, inspector)
  useEffect(() => {
    if (!p.selected || !own.current) return;
    const a = document.activeElement;
    if (a === own.current) return;
    if (!a || a === document.body || a.getAttribute("role") === "treeitem") own.current.focus();
  }, [p.selected]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget) return;
    const mod = e.ctrlKey || e.metaKey;
    let handled = true;
    if (e.altKey && e.key === "ArrowUp") moveUp(field.id);
    else if (e.altKey && e.key === "ArrowDown") moveDown(field.id);
    else if (e.altKey && e.key === "ArrowRight") moveIntoGroupAbove(field.id);
    else if (e.altKey && e.key === "ArrowLeft") moveOutOfGroup(field.id);
    else if (e.key === "ArrowUp") p.onArrow(field.id, -1);
    else if (e.key === "ArrowDown") p.onArrow(field.id, 1);
    else if (e.key === "Delete" || e.key === "Backspace") deleteField(field.id);
    else if (mod && e.key.toLowerCase() === "d") duplicate(field.id);
    else handled = false;
    if (handled) e.preventDefault();
  };

  const cls = [
    "row",
    p.selected ? "selected" : "",
    linked && !p.selected ? "linked" : "",
    isDragging ? "dragging" : "",
    p.drop === "before" ? "drop-before" : "",
    p.drop === "after" ? "drop-after" : "",
    p.drop === "into" ? "drop-into" : "",
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <li
      ref={ref}
      className={cls}
      style={{ paddingLeft: 4 + p.depth * 16 }}
      data-testid={`row-${p.keyPath}`}
      data-field-id={field.id}
      tabIndex={0}
      role="treeitem"
      aria-level={p.depth + 1}
      aria-selected={p.selected}
      aria-label={`${named ? field.name : "(no name)"} (${typeBadge(field.type)}, key ${field.key})`}
      aria-keyshortcuts="Alt+ArrowUp Alt+ArrowDown Alt+ArrowRight Alt+ArrowLeft Delete Control+D"
      onClick={() => select(field.id)}
      onFocus={(e) => {
        if (e.target === e.currentTarget) select(field.id);
      }}
      onMouseEnter={() => hover(field.id)}
      onMouseLeave={() => hover(null)}
      onKeyDown={onKeyDown}
    >
      <button
        type="button"
        className="handle"
        aria-label={`Drag ${named ? field.name : field.key}`}
        data-testid={`handle-${p.keyPath}`}
        {...attributes}
        {...listeners}
        onClick={(e) => e.stopPropagation()}
      >
        <Icon name="grip" />
      </button>
      <span className="swatch" style={{ background: p.color }} aria-hidden="true" />
      <span className="badge">{typeBadge(field.type)}</span>
      <span className="label">
        {named ? (
          <span className="name">{field.name}</span>
        ) : (
          <span className="name unnamed" title="The name shows nothing: give it a visible character">
            (no name)
          </span>
        )}
        {field.name !== field.key && <span className="key">{field.key}</span>}
        {field.presence === "optional" && <span className="optional-tag">opt</span>}
      </span>
      {p.hasIssues && (
        <span className="issue-dot" title="This field has problems: see the inspector" aria-label="has problems" />
      )}
    </li>
  );
});
