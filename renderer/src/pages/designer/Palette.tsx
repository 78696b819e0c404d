// Field types to drag into the layout; click or Enter adds one next to the selection (the keyboard path).
import { useDraggable } from "@dnd-kit/core";
import { paletteDndId } from "./dnd.ts";
import { placeForNew, addField } from "./edits/actions.ts";
import { PALETTE, type PaletteItem } from "./edits/palette.ts";
import { useDesigner } from "../../state/layoutStore.ts";
import { typeBadge } from "../../ui/format.ts";

function Chip({ item }: { item: PaletteItem }) {
  const { attributes, listeners, setNodeRef } = useDraggable({ id: paletteDndId(item.id), data: { item } });
  const add = () => {
    const d = useDesigner.getState();
    addField(item, placeForNew(d.history.present.fields, d.selectedId));
  };
  return (
    <button
      ref={setNodeRef}
      type="button"
      className="palette-chip"
      data-testid={`palette-${item.id}`}
      title={`${item.hint}: drag into the layout, or click to add after the selected field`}
      {...attributes}
      {...listeners}
      aria-label={`Add ${item.label} field`}
      aria-roledescription="draggable field type"
      onClick={add}
      onKeyDown={(e) => {
        // Enter adds right away; Space starts a keyboard drag (dnd-kit)
        if (e.key === "Enter") {
          e.preventDefault();
          add();
          return;
        }
        listeners?.onKeyDown?.(e);
      }}
    >
      {item.label}
    </button>
  );
}

export function Palette() {
  return (
    <div className="palette" data-testid="palette">
      <div className="palette-grid" role="group" aria-label="Field types">
        {PALETTE.map((item) => (
          <Chip key={item.id} item={item} />
        ))}
      </div>
      <p className="palette-hint">Drag into the layout, or click to add after the selection.</p>
    </div>
  );
}

export function PaletteOverlay({ item }: { item: PaletteItem }) {
  return (
    <div className="drag-overlay-chip">
      <span className="badge">{typeBadge(item.make())}</span>
      {item.label}
    </div>
  );
}
