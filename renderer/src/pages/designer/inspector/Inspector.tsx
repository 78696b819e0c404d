// The selected field's properties (or the layout's, when nothing is selected), with inline validation.
import { LIMITS } from "#codecs";
import { SelectField, TextField } from "./controls.tsx";
import { patchField, renameField } from "./edit.ts";
import { InputOwner } from "./heldText.ts";
import { LayoutSettings } from "./LayoutSettings.tsx";
import { SampleEditor } from "./SampleEditor.tsx";
import { TextRepEditor } from "./TextRepEditor.tsx";
import { TypeEditor } from "./TypeEditor.tsx";
import { WireOptions } from "./WireOptions.tsx";
import { issuesAt } from "../../../state/issues.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { locate } from "../../../state/tree.ts";
import { typeBadge } from "../../../ui/format.ts";

function FieldInspector({ id }: { id: string }) {
  const field = useDesigner((s) => locate(s.history.present.fields, id)?.field);
  const issues = useDesigner((s) => s.issues.byField.get(id));
  if (!field) return null;
  const set = (control: string, patch: Partial<typeof field>) =>
    patchField(id, control, (f) => {
      const out = { ...f, ...patch };
      for (const k of Object.keys(patch) as (keyof typeof patch)[]) if (patch[k] === undefined) delete out[k];
      return out;
    });
  return (
    <InputOwner.Provider value={id}>
      <div className="inspector" data-testid="inspector" data-field-id={id}>
        {issues && issues.length > 0 && (
          <ul className="issue-list" data-testid="field-issues" aria-label="Problems in this field">
            {issues.map((i, n) => (
              <li key={n}>{i.message}</li>
            ))}
          </ul>
        )}
        <section className="inspector-section" aria-label="General">
          <h3>General</h3>
          <TextField
            label="Name"
            value={field.name}
            maxLength={LIMITS.name.max}
            issues={issuesAt(issues, "name")}
            testId="insp-name"
            onChange={(v) => renameField(id, v)}
          />
          <TextField
            label="Key"
            value={field.key}
            maxLength={LIMITS.identifier.max}
            mono
            help="Name on the wire (JSON/CBOR/MessagePack keys, protobuf field name)"
            issues={issuesAt(issues, "key")}
            testId="insp-key"
            onChange={(v) => set("key", { key: v })}
          />
          <TextField
            label="Unit"
            value={field.unit}
            maxLength={LIMITS.unit.max}
            placeholder="e.g. °C, hPa, m/s"
            issues={issuesAt(issues, "unit")}
            testId="insp-unit"
            onChange={(v) => set("unit", { unit: v === "" ? undefined : v })}
          />
          <TextField
            label="Description"
            value={field.description}
            multiline
            maxLength={LIMITS.fieldDescription.max}
            issues={issuesAt(issues, "description")}
            testId="insp-description"
            onChange={(v) => set("description", { description: v === "" ? undefined : v })}
          />
          <SelectField
            label="Presence"
            value={field.presence}
            options={[
              { value: "required", label: "Required" },
              { value: "optional", label: "Optional (may be absent)" },
            ]}
            issues={issuesAt(issues, "presence")}
            testId="insp-presence"
            onChange={(v) => set("presence", { presence: v })}
          />
        </section>
        <TypeEditor field={field} issues={issues} />
        <TextRepEditor field={field} issues={issues} />
        <WireOptions field={field} issues={issues} />
        <SampleEditor field={field} issues={issues} />
      </div>
    </InputOwner.Provider>
  );
}

export function Inspector() {
  const selectedId = useDesigner((s) => s.selectedId);
  const field = useDesigner((s) => (s.selectedId ? locate(s.history.present.fields, s.selectedId)?.field : undefined));
  return (
    <>
      <div className="pane-header">
        <h2>{field ? "Field" : "Layout"}</h2>
        {field && <span className="badge">{typeBadge(field.type)}</span>}
        <span className="spacer" />
        {field && (
          <button
            type="button"
            className="btn small ghost"
            data-testid="inspector-layout"
            onClick={() => useDesigner.getState().select(null)}
          >
            Layout settings
          </button>
        )}
      </div>
      <div className="pane-body">
        {selectedId && field ? <FieldInspector key={selectedId} id={selectedId} /> : <LayoutSettings />}
      </div>
    </>
  );
}
