// The layout as a tree of rows: sortable by drag, with drop zones at the end of every group and of the layout.
// Only the rows near the view are mounted (a 2 000-field layout is a long list), and a row is drawn again only
// when its own field, colour, selection, problems or drop mark change, so a keystroke redraws one row.
import { useDroppable } from "@dnd-kit/core";
import { SortableContext, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useMemo, useRef, type RefObject } from "react";
import type { Field } from "#codecs";
import { fieldColor } from "./colors.ts";
import { endDndId, rowDndId } from "./dnd.ts";
import { FieldRow } from "./FieldRow.tsx";
import { useDesigner } from "../../state/layoutStore.ts";
import { useSettings } from "../../state/settings.ts";

export interface DropIndicator {
  /** dnd id of the row or zone under the drag */
  overId: string;
  mode: "before" | "after" | "into" | "end";
}

/** One line of the tree in screen order: a field's row, or the drop zone closing a group. */
export type TreeLine =
  | { kind: "row"; field: Field; depth: number; color: string; keyPath: string }
  | { kind: "end"; groupId: string; depth: number };

/** Heights from app.css (.row, .drop-zone.group-end, and the latter while dragging). */
const ROW_PX = 32;
const END_PX = 8;
const END_DRAGGING_PX = 26;
/**
 * rows mounted beyond the view on each side: enough for a flick of the wheel; every mounted row is laid out,
 * painted and layered again in the frame of each keystroke, so no more
 */
const OVERSCAN = 10;

/** A top-level field's lines (its row, and a group's rows and end zone), by the colour they were drawn in. */
export type LinesCache = WeakMap<Field, { color: string; lines: TreeLine[] }>;

/**
 * The lines of the tree. With a cache, a top-level field object seen before (in the same colour) gives the same
 * line objects, so a keystroke that replaces one field builds that field's lines alone.
 */
export function treeLines(fields: readonly Field[], theme: "light" | "dark", cache?: LinesCache): TreeLine[] {
  const walk = (out: TreeLine[], list: readonly Field[], depth: number, color: string | null, keyPrefix: string) =>
    list.forEach((f, index) => {
      const c = color ?? fieldColor(index, theme);
      const keyPath = keyPrefix ? `${keyPrefix}.${f.key}` : f.key;
      out.push({ kind: "row", field: f, depth, color: c, keyPath });
      if (f.type.kind === "group") {
        walk(out, f.type.fields, depth + 1, c, keyPath);
        out.push({ kind: "end", groupId: f.id, depth: depth + 1 });
      }
    });
  const out: TreeLine[] = [];
  fields.forEach((f, index) => {
    const color = fieldColor(index, theme);
    let hit = cache?.get(f);
    if (!hit || hit.color !== color) {
      hit = { color, lines: [] };
      walk(hit.lines, [f], 0, color, "");
      cache?.set(f, hit);
    }
    for (const l of hit.lines) out.push(l);
  });
  return out;
}

/** a row and a group's end zone never share a key, whatever the field ids */
const lineKey = (l: TreeLine) => (l.kind === "row" ? `r:${l.field.id}` : `e:${l.groupId}`);

function EndZone({ groupId, depth, over }: { groupId: string; depth: number; over: boolean }) {
  const { setNodeRef } = useDroppable({ id: endDndId(groupId) });
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

/** The same array while the ids in it are the same, so the sortable context (and every row in it) stays put. */
function useStableIds(ids: string[]): string[] {
  const last = useRef<string[]>(ids);
  if (last.current.length !== ids.length || last.current.some((id, i) => id !== ids[i])) last.current = ids;
  return last.current;
}

export function LayoutTree({
  dragging,
  indicator,
  scrollRef,
}: {
  dragging: boolean;
  indicator: DropIndicator | null;
  /** the scrolling element the tree sits in */
  scrollRef: RefObject<HTMLElement | null>;
}) {
  const fields = useDesigner((s) => s.history.present.fields);
  const selectedId = useDesigner((s) => s.selectedId);
  const issues = useDesigner((s) => s.issues.byField);
  const theme = useSettings((s) => s.theme);
  const cache = useRef<LinesCache>(new WeakMap());
  const lines = useMemo(() => treeLines(fields, theme, cache.current), [fields, theme]);
  // the tree's shape: the same arrays while no line is added, removed or moved (a keystroke in a field changes none)
  const keys = useStableIds(useMemo(() => lines.map(lineKey), [lines]));
  const ids = useStableIds(
    useMemo(() => lines.flatMap((l) => (l.kind === "row" ? [rowDndId(l.field.id)] : [])), [lines]),
  );
  // stable while the shape is: the virtualizer measures its items again only when these change
  const getItemKey = useCallback((i: number) => keys[i]!, [keys]);
  const estimateSize = useCallback(
    (i: number) => (keys[i]!.startsWith("e:") ? (dragging ? END_DRAGGING_PX : END_PX) : ROW_PX),
    [keys, dragging],
  );

  const virtual = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: OVERSCAN,
    getItemKey,
  });
  // the end zones grow while dragging
  useEffect(() => virtual.measure(), [dragging, virtual]);

  const linesRef = useRef(lines);
  linesRef.current = lines;
  // a selection made elsewhere (arrow keys, a byte clicked in the byte map, duplicate) scrolls its row into view
  useEffect(() => {
    if (selectedId === null) return;
    const i = linesRef.current.findIndex((l) => l.kind === "row" && l.field.id === selectedId);
    if (i >= 0) virtual.scrollToIndex(i, { align: "auto" });
  }, [selectedId, virtual]);

  const onArrow = useCallback((fromId: string, delta: -1 | 1) => {
    const rows = linesRef.current.filter((l) => l.kind === "row");
    const next = rows[rows.findIndex((r) => r.field.id === fromId) + delta];
    // the row takes focus when it is mounted and sees itself selected (FieldRow)
    if (next) useDesigner.getState().select(next.field.id);
  }, []);

  const items = virtual.getVirtualItems();
  const before = items.length ? items[0]!.start : 0;
  const after = items.length ? virtual.getTotalSize() - items[items.length - 1]!.end : 0;

  return (
    <SortableContext items={ids} strategy={verticalListSortingStrategy}>
      <ul
        className={`tree${dragging ? " dragging" : ""}`}
        role="tree"
        aria-label="Layout fields"
        data-testid="layout-tree"
        data-rows={ids.length}
      >
        {before > 0 && <li className="tree-spacer" style={{ height: before }} aria-hidden="true" />}
        {items.map((item) => {
          const l = lines[item.index]!;
          if (l.kind === "end") {
            const over = indicator?.overId === endDndId(l.groupId);
            return <EndZone key={item.key} groupId={l.groupId} depth={l.depth} over={over} />;
          }
          const rowId = rowDndId(l.field.id);
          const drop = indicator?.overId === rowId && indicator.mode !== "end" ? indicator.mode : null;
          return (
            <FieldRow
              key={item.key}
              field={l.field}
              keyPath={l.keyPath}
              depth={l.depth}
              color={l.color}
              hasIssues={issues.has(l.field.id)}
              selected={selectedId === l.field.id}
              drop={drop}
              onArrow={onArrow}
            />
          );
        })}
        {after > 0 && <li className="tree-spacer" style={{ height: after }} aria-hidden="true" />}
        <RootEnd empty={fields.length === 0} indicator={indicator} />
      </ul>
    </SortableContext>
  );
}
