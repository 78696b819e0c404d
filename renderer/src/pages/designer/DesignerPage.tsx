// The designer: fields (palette + tree, drag and drop) | inspector | live analysis; plus the global shortcuts.
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  pointerWithin,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { useEffect, useRef, useState } from "react";
import { AnalysisPanel } from "./analysis/AnalysisPanel.tsx";
import { dropPlace, parseDndId, type DndRef, type Placement } from "./dnd.ts";
import { addField, moveTo } from "./edits/actions.ts";
import { paletteItem } from "./edits/palette.ts";
import { Inspector } from "./inspector/Inspector.tsx";
import { LayoutTree, type DropIndicator } from "./LayoutTree.tsx";
import { Palette, PaletteOverlay } from "./Palette.tsx";
import { Banners, TopBar } from "./TopBar.tsx";
import { TreeToolbar } from "./TreeToolbar.tsx";
import { flushSave } from "../../session/autosave.ts";
import { useDesigner } from "../../state/layoutStore.ts";
import { flatten, locate } from "../../state/tree.ts";
import { usePaintedOnce } from "../../ui/paintedOnce.ts";

// zones and rows under the pointer first; the keyboard sensor has no pointer, so fall back to distance
const collision: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  return hits.length ? hits : closestCenter(args);
};

function useShortcuts() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (!mod || e.altKey) return;
      const k = e.key.toLowerCase();
      // the layout's own history, also inside inputs, so one Ctrl+Z always means the same thing
      if (k === "z" && !e.shiftKey) {
        e.preventDefault();
        useDesigner.getState().undo();
      } else if ((k === "z" && e.shiftKey) || k === "y") {
        e.preventDefault();
        useDesigner.getState().redo();
      } else if (k === "s") {
        e.preventDefault();
        void flushSave();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** Before/after from where the dragged thing's centre is; on a tie (keyboard moves) from the direction of travel. */
function placementOf(e: DragMoveEvent | DragEndEvent, active: DndRef | null): Placement {
  const over = e.over;
  const rect = e.active.rect.current.translated;
  if (!over || !rect) return "after";
  const dy = rect.top + rect.height / 2 - (over.rect.top + over.rect.height / 2);
  if (Math.abs(dy) > 3) return dy < 0 ? "before" : "after";
  const overRef = parseDndId(over.id);
  if (active?.kind === "row" && overRef?.kind === "row") {
    const rows = flatten(useDesigner.getState().history.present.fields);
    const a = rows.findIndex((r) => r.field.id === active.id);
    const o = rows.findIndex((r) => r.field.id === overRef.id);
    return o > a ? "after" : "before";
  }
  return "after";
}

export function DesignerPage() {
  useShortcuts();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const [active, setActive] = useState<DndRef | null>(null);
  const [indicator, setIndicator] = useState<DropIndicator | null>(null);

  const activeFieldId = active?.kind === "row" ? active.id : null;

  const update = (e: DragMoveEvent) => {
    const over = e.over ? parseDndId(e.over.id) : null;
    if (!over || !e.over) return setIndicator(null);
    const fields = useDesigner.getState().history.present.fields;
    const placement = placementOf(e, active);
    if (!dropPlace(fields, activeFieldId, over, placement)) return setIndicator(null);
    const overId = String(e.over.id);
    if (over.kind === "end") return setIndicator({ overId, mode: "end" });
    const isGroup = over.kind === "row" && locate(fields, over.id)?.field.type.kind === "group";
    setIndicator({ overId, mode: placement === "after" && isGroup ? "into" : placement });
  };

  const onStart = (e: DragStartEvent) => {
    setActive(parseDndId(e.active.id));
    setIndicator(null);
  };

  const onEnd = (e: DragEndEvent) => {
    const from = active;
    setActive(null);
    setIndicator(null);
    const over = e.over ? parseDndId(e.over.id) : null;
    if (!from || !over) return;
    const fields = useDesigner.getState().history.present.fields;
    const place = dropPlace(fields, from.kind === "row" ? from.id : null, over, placementOf(e, from));
    if (!place) return;
    if (from.kind === "palette") {
      const item = paletteItem(from.id);
      if (item) addField(item, place);
    } else if (from.kind === "row") {
      moveTo(from.id, place);
      useDesigner.getState().select(from.id);
    }
  };

  const overlay = () => {
    if (active?.kind === "palette") {
      const item = paletteItem(active.id);
      return item ? <PaletteOverlay item={item} /> : null;
    }
    if (active?.kind === "row") {
      const f = locate(useDesigner.getState().history.present.fields, active.id)?.field;
      return f ? <div className="drag-overlay-chip">{f.name}</div> : null;
    }
    return null;
  };

  const fieldCount = useDesigner((s) => flatten(s.history.present.fields).length);
  const treeScroll = useRef<HTMLDivElement | null>(null);
  // coming back to the designer: fields and inspector paint first, the analysis (charts, tables) right after
  const analysisReady = usePaintedOnce();

  return (
    <>
      <TopBar />
      <Banners />
      <div className="designer" data-testid="designer">
        <DndContext
          sensors={sensors}
          collisionDetection={collision}
          onDragStart={onStart}
          onDragMove={update}
          onDragOver={update}
          onDragEnd={onEnd}
          onDragCancel={() => {
            setActive(null);
            setIndicator(null);
          }}
        >
          <aside className="pane" aria-label="Fields">
            <div className="pane-header">
              <h2>Fields</h2>
              <span className="faint num" data-testid="field-count">
                {fieldCount}
              </span>
              <span className="spacer" />
              <TreeToolbar />
            </div>
            <Palette />
            <div className="pane-body" ref={treeScroll}>
              <LayoutTree dragging={active !== null} indicator={indicator} scrollRef={treeScroll} />
            </div>
          </aside>
          <DragOverlay dropAnimation={null}>{overlay()}</DragOverlay>
        </DndContext>
        <section className="pane" aria-label="Inspector">
          <Inspector />
        </section>
        <section className="pane" aria-label="Analysis">
          {analysisReady ? <AnalysisPanel /> : <div className="empty">Measuring…</div>}
        </section>
      </div>
    </>
  );
}
