// The options of the chosen exports, drawn from the fields the host derives from each exporter's zod
// schema (exports.list): a choice is a select, a list of choices checkboxes, text a text box, a number a
// number box. Nothing here names an export or an option; a refused value is shown under its field.
import { type OptionField, type OptionValue, optionShown, setOption, toggleChoice, useExport } from "./exportStore.ts";

function Field({ field }: { field: OptionField }) {
  // the raw value is selected (a stable reference); a default list is built per render
  const value = optionShown(
    field,
    useExport((s) => s.options[field.key]),
  );
  const problem = useExport((s) => s.optionErrors[field.key]);
  const id = `opt-${field.flag}`;
  const set = (v: OptionValue | undefined) => setOption(field.key, v);
  let input: React.ReactNode;
  switch (field.kind) {
    case "choices": {
      const chosen = value as string[];
      input = (
        <div className="export-checks" role="group" aria-labelledby={`${id}-label`}>
          {field.choices!.map((c) => (
            <label key={c.value} className="check">
              <input
                type="checkbox"
                data-testid={`${id}-${c.value}`}
                checked={chosen.includes(c.value)}
                onChange={() => toggleChoice(field, c.value)}
              />
              {c.label}
            </label>
          ))}
        </div>
      );
      break;
    }
    case "choice":
      input = (
        <select id={id} className="select" data-testid={id} value={String(value)} onChange={(e) => set(e.target.value)}>
          {field.choices!.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      );
      break;
    case "integer":
    case "number":
      input = (
        <input
          id={id}
          type="number"
          className="input mono"
          data-testid={id}
          value={value === undefined ? "" : String(value)}
          min={field.min}
          max={field.max}
          step={field.kind === "integer" ? 1 : "any"}
          // empty: the option's default
          onChange={(e) => set(e.target.value === "" ? undefined : Number(e.target.value))}
        />
      );
      break;
    case "boolean":
      input = (
        <input
          id={id}
          type="checkbox"
          data-testid={id}
          checked={value === true}
          onChange={(e) => set(e.target.checked)}
        />
      );
      break;
    case "text":
      input = (
        <input
          id={id}
          className="input mono"
          data-testid={id}
          value={String(value ?? "")}
          maxLength={field.maxLength}
          onChange={(e) => set(e.target.value)}
        />
      );
      break;
  }
  return (
    <div className={`export-opt${problem ? " has-problem" : ""}`} title={field.description}>
      {field.kind === "choices" ? (
        <div id={`${id}-label`} className="export-opt-label">
          {field.label}
        </div>
      ) : (
        <label htmlFor={id} className="export-opt-label">
          {field.label}
        </label>
      )}
      {input}
      {problem && (
        <div className="export-opt-problem" role="alert" data-testid={`${id}-problem`}>
          {problem}
        </div>
      )}
    </div>
  );
}

/** The option groups of the chosen exports that have options; nothing when none has. */
export function ExportOptionsForm() {
  const exporters = useExport((s) => s.exporters);
  const selected = useExport((s) => s.selected);
  const shown = exporters.filter((e) => selected.includes(e.id) && e.options.length > 0);
  if (!shown.length) return null;
  return (
    <section className="export-options" aria-label="Export options">
      <h3>Options</h3>
      {shown.map((e) => (
        <fieldset key={e.id} className="export-opt-group" data-testid={`opts-${e.id}`}>
          <legend>{e.label}</legend>
          {e.options.map((f) => (
            <Field key={f.key} field={f} />
          ))}
        </fieldset>
      ))}
    </section>
  );
}
