// The layout as a tree of rows: sortable by drag, with drop zones at the end of every group and of the layout.
import { useDroppable } from "@dnd-kit/core";
import { SortableContext, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useMemo, type ReactNode } from "react";
import type { Field } from "#codecs";
import { endDndId, rowDndId } from "./dnd.ts";
import { FieldRow } from "./FieldRow.tsx";
import { fieldColor } from "../../components/common/colors.ts";
import { useDesigner } from "../../state/designer.ts";
import { useSettings } from "../../state/settings.ts";
import { flatten } from "../../state/tree.ts";

export interface DropIndicator {
  /** dnd id of the row or zone under the drag */
  overId: string;
  mode: "before" | "after" | "into" | "end";
}

function EndZone({ groupId, depth, indicator }: { groupId: string; depth: number; indicator: DropIndicator | null }) {
  const id = endDndId(groupId);
  const { setNodeRef } = useDroppable({ id });
  const over = indicator?.overId === id;
  return (
    <li
      ref={setNodeRef}
      className={`drop-zone group-end${over ? " over" : ""}`}
      style={{ marginLeft: 4 + depth * 16 }}
      data-testid={`group-end-${groupId}`}
      aria-hidden="true"
    >
      {over ? "Drop at the end of the group" : ""}
    </li>
  );
}

function RootEnd({ empty, indicator }: { empty: boolean; indicator: DropIndicator | null }) {
  const id = endDndId(null);
  const { setNodeRef } = useDroppable({ id });
  const over = indicator?.overId === id;
  if (empty)
    return (
      <li ref={setNodeRef} className={`tree-empty${over ? " over" : ""}`} data-testid="tree-empty">
        <strong>No fields yet</strong>
        <span>Drag a field type here from the palette above, or click one to add it.</span>
      </li>
    );
  return (
    <li
      ref={setNodeRef}
      className={`drop-zone root-end${over ? " over" : ""}`}
      data-testid="tree-end"
      aria-hidden="true"
    />
  );
}

export function LayoutTree({ dragging, indicator }: { dragging: boolean; indicator: DropIndicator | null }) {
  const fields = useDesigner((s) => s.history.present.fields);
  const selectedId = useDesigner((s) => s.selectedId);
  const issues = useDesigner((s) => s.issues.byField);
  const theme = useSettings((s) => s.theme);
  const rows = useMemo(() => flatten(fields), [fields]);
  const ids = useMemo(() => rows.map((r) => rowDndId(r.field.id)), [rows]);

  const focusRow = (fromId: string, delta: -1 | 1) => {
    const i = rows.findIndex((r) => r.field.id === fromId);
    const next = rows[i + delta];
    if (!next) return;
    useDesigner.getState().select(next.field.id);
    document.querySelector<HTMLElement>(`[data-field-id="${CSS.escape(next.field.id)}"]`)?.focus();
  };

  const render = (list: readonly Field[], depth: number, color: string | null, keyPrefix: string): ReactNode[] =>
    list.flatMap((f, index) => {
      const c = color ?? fieldColor(index, theme);
      const keyPath = keyPrefix ? `${keyPrefix}.${f.key}` : f.key;
      const rowId = rowDndId(f.id);
      const drop = indicator?.overId === rowId && indicator.mode !== "end" ? indicator.mode : null;
      const out: ReactNode[] = [
        <FieldRow
          key={f.id}
          field={f}
          keyPath={keyPath}
          depth={depth}
          color={c}
          hasIssues={issues.has(f.id)}
          selected={selectedId === f.id}
          drop={drop}
          onArrow={(d) => focusRow(f.id, d)}
        />,
      ];
      if (f.type.kind === "group") {
        out.push(...render(f.type.fields, depth + 1, c, keyPath));
        out.push(<EndZone key={`end-${f.id}`} groupId={f.id} depth={depth + 1} indicator={indicator} />);
      }
      return out;
    });

  return (
    <SortableContext items={ids} strategy={verticalListSortingStrategy}>
      <ul
        className={`tree${dragging ? " dragging" : ""}`}
        role="tree"
        aria-label="Layout fields"
        data-testid="layout-tree"
      >
        {render(fields, 0, null, "")}
        <RootEnd empty={fields.length === 0} indicator={indicator} />
      </ul>
    </SortableContext>
  );
}
