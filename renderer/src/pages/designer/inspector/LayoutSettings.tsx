// Layout-wide settings shown when no field is selected: names, protobuf package/message, struct and JSON options.
import { type Layout, LIMITS } from "#codecs";
import { BatchSection } from "./BatchSettings.tsx";
import { NumberField, Row, SelectField, TextField, Messages } from "./controls.tsx";
import { useHeldText } from "./heldText.ts";
import type { FieldIssue } from "../../../state/issues.ts";
import { useDesigner } from "../../../state/layoutStore.ts";

function edit(control: string, fn: (l: Layout) => Layout): void {
  useDesigner.getState().edit(fn, `layout:${control}`);
}

function withDescription(l: Layout, text: string): Layout {
  const { description: _old, ...rest } = l;
  return text ? { ...rest, description: text } : rest;
}

/** "3, 7" → [3, 7]; a part that is not a number is named, so the text is held with why */
function parseReserved(text: string): { ok: true; numbers: number[] } | { ok: false; why: string } {
  const parts = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = parts.find((p) => !/^[+-]?\d+(\.\d+)?$/.test(p));
  if (bad !== undefined) return { ok: false, why: `"${bad}" is not a number; list whole numbers, e.g. 3, 7, 12.` };
  return { ok: true, numbers: parts.map(Number) };
}

function ReservedNumbers({ value, issues }: { value: number[]; issues: FieldIssue[] }) {
  const shown = value.join(", ");
  // every number goes to the layout, whose validation says which one is not a field number
  const held = useHeldText("layout-reserved", shown, (t) => {
    const r = parseReserved(t);
    return r.ok && r.numbers.join(", ") === shown;
  });
  const invalid = !!held.problem || issues.length > 0;
  return (
    <Row label="Reserved #" help="Protobuf numbers of deleted fields, never reused">
      <input
        className={`input num${invalid ? " invalid" : ""}`}
        value={held.text}
        placeholder="none"
        data-testid="layout-reserved"
        aria-invalid={invalid}
        onKeyDown={held.onKeyDown}
        onChange={(e) => {
          const r = parseReserved(e.target.value);
          if (!r.ok) return held.hold(e.target.value, r.why);
          held.accept(e.target.value);
          edit("reserved", (l) => ({ ...l, protobufReserved: r.numbers }));
        }}
      />
      <Messages local={held.problem} issues={issues} />
    </Row>
  );
}

export function LayoutSettings() {
  const layout = useDesigner((s) => s.history.present);
  const issues = useDesigner((s) => s.issues.layout);
  const fieldIssueCount = useDesigner((s) => s.issues.byField.size);
  const at = (p: string): FieldIssue[] =>
    issues
      .filter((i) => i.path === p || i.path.startsWith(`${p}.`) || i.path.startsWith(`${p}[`))
      .map((i) => ({ at: i.path, message: i.message }));
  const other = issues.filter(
    (i) =>
      !["name", "description", "package", "message", "struct", "json", "sbe", "protobufReserved", "batch"].some(
        (p) => i.path === p || i.path.startsWith(`${p}.`) || i.path.startsWith(`${p}[`),
      ),
  );
  return (
    <div className="inspector" data-testid="layout-settings">
      {fieldIssueCount > 0 && (
        <p className="issue-list">
          {fieldIssueCount} field{fieldIssueCount === 1 ? " has" : "s have"} problems (marked ● in the list). Sizes show
          the last valid layout until they are fixed.
        </p>
      )}
      {other.length > 0 && (
        <ul className="issue-list">
          {other.map((i, n) => (
            <li key={n}>{i.message}</li>
          ))}
        </ul>
      )}
      <section className="inspector-section">
        <h3>General</h3>
        <TextField
          label="Project and layout name"
          value={layout.name}
          maxLength={LIMITS.name.max}
          help="One name for both: renaming here renames the project (the top bar shows it), and code headers, exports, the report and load-test runs use it"
          issues={at("name")}
          testId="layout-name"
          onChange={(v) => edit("name", (l) => ({ ...l, name: v }))}
        />
        <TextField
          label="Description"
          value={layout.description}
          multiline
          maxLength={LIMITS.layoutDescription.max}
          issues={at("description")}
          testId="layout-description"
          onChange={(v) => edit("description", (l) => withDescription(l, v))}
        />
      </section>
      <BatchSection />
      <section className="inspector-section">
        <h3>Protobuf</h3>
        <TextField
          label="Package"
          value={layout.package}
          mono
          maxLength={LIMITS.identifier.max}
          issues={at("package")}
          testId="layout-package"
          onChange={(v) => edit("package", (l) => ({ ...l, package: v }))}
        />
        <TextField
          label="Message"
          value={layout.message}
          mono
          maxLength={LIMITS.identifier.max}
          issues={at("message")}
          testId="layout-message"
          onChange={(v) => edit("message", (l) => ({ ...l, message: v }))}
        />
        <ReservedNumbers value={layout.protobufReserved} issues={at("protobufReserved")} />
      </section>
      <section className="inspector-section">
        <h3>Struct</h3>
        <SelectField
          label="Byte order"
          value={layout.struct.endianness}
          options={[
            { value: "big", label: "Big-endian ('>')" },
            { value: "little", label: "Little-endian" },
          ]}
          testId="layout-endianness"
          onChange={(v) => edit("endianness", (l) => ({ ...l, struct: { ...l.struct, endianness: v } }))}
        />
        <SelectField
          label="Strings"
          value={layout.struct.stringMode}
          options={[
            { value: "fixed", label: "Fixed, NUL padded" },
            { value: "u8-inline", label: "u8 length + bytes" },
            { value: "u16-inline", label: "u16 length + bytes" },
            { value: "u8-appended", label: "u8 length, bytes at end" },
            { value: "u16-appended", label: "u16 length, bytes at end" },
          ]}
          testId="layout-string-mode"
          onChange={(v) => edit("stringMode", (l) => ({ ...l, struct: { ...l.struct, stringMode: v } }))}
        />
      </section>
      <section className="inspector-section">
        <h3>JSON</h3>
        <SelectField
          label="Spacing"
          value={layout.json.spacing}
          options={[
            { value: "compact", label: "Compact  , :" },
            { value: "python", label: 'Python  ", "  ": "' },
          ]}
          testId="layout-json-spacing"
          onChange={(v) => edit("spacing", (l) => ({ ...l, json: { spacing: v } }))}
        />
      </section>
      <section className="inspector-section">
        <h3>SBE</h3>
        <NumberField
          label="Schema id"
          value={layout.sbe.schemaId}
          issues={at("sbe.schemaId")}
          testId="layout-sbe-schema"
          onCommit={(v) => v !== undefined && edit("sbe.schemaId", (l) => ({ ...l, sbe: { ...l.sbe, schemaId: v } }))}
        />
        <NumberField
          label="Template id"
          value={layout.sbe.templateId}
          issues={at("sbe.templateId")}
          testId="layout-sbe-template"
          onCommit={(v) =>
            v !== undefined && edit("sbe.templateId", (l) => ({ ...l, sbe: { ...l.sbe, templateId: v } }))
          }
        />
        <NumberField
          label="Version"
          value={layout.sbe.version}
          issues={at("sbe.version")}
          testId="layout-sbe-version"
          onCommit={(v) => v !== undefined && edit("sbe.version", (l) => ({ ...l, sbe: { ...l.sbe, version: v } }))}
        />
      </section>
    </div>
  );
}
