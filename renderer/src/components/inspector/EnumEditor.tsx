// Enum values: name and number per row, add/remove; duplicates are reported by parseLayout next to the row.
import type { ScalarType } from "#codecs";
import { Messages, NumberField, Row } from "./controls.tsx";
import { issuesAt, type FieldIssue } from "../../state/issues.ts";
import { Icon } from "../common/Icon.tsx";

type EnumType = Extract<ScalarType, { kind: "enum" }>;

export function EnumEditor({
  t,
  at,
  issues,
  set,
}: {
  t: EnumType;
  at: string;
  issues: readonly FieldIssue[] | undefined;
  set(next: EnumType, control: string): void;
}) {
  const update = (i: number, patch: Partial<EnumType["values"][number]>, control: string) =>
    set({ ...t, values: t.values.map((v, j) => (j === i ? { ...v, ...patch } : v)) }, `values.${i}.${control}`);
  const add = () => {
    const next = Math.max(-1, ...t.values.map((v) => v.value)) + 1;
    set({ ...t, values: [...t.values, { name: `VALUE_${next}`, value: Math.min(next, 0xffff) }] }, "values.add");
  };
  const remove = (i: number) => set({ ...t, values: t.values.filter((_, j) => j !== i) }, "values.remove");
  return (
    <Row label="Values" top>
      <div className="enum-table" data-testid="enum-editor">
        {t.values.map((v, i) => (
          <div className="enum-row" key={i}>
            <div className="control-wrap">
              <input
                className={`input${issuesAt(issues, `${at}.values[${i}].name`).length ? " invalid" : ""}`}
                aria-label={`Name of value ${i + 1}`}
                value={v.name}
                maxLength={64}
                data-testid={`enum-name-${i}`}
                onChange={(e) => update(i, { name: e.target.value }, "name")}
              />
              <Messages issues={issuesAt(issues, `${at}.values[${i}].name`)} />
            </div>
            <NumberField
              bare
              label={`Number of value ${i + 1}`}
              value={v.value}
              integer
              check={(n) => (n < 0 || n > 0xffff ? "0 … 65535" : null)}
              issues={issuesAt(issues, `${at}.values[${i}].value`)}
              testId={`enum-value-${i}`}
              onCommit={(n) => n !== undefined && update(i, { value: n }, "value")}
            />
            <button
              type="button"
              className="icon-btn"
              aria-label={`Remove ${v.name}`}
              disabled={t.values.length <= 1}
              onClick={() => remove(i)}
            >
              <Icon name="close" size={12} />
            </button>
          </div>
        ))}
        <Messages issues={issuesAt(issues, `${at}.values`)} />
        <div>
          <button type="button" className="btn small" data-testid="enum-add" onClick={add}>
            + Add value
          </button>
        </div>
      </div>
    </Row>
  );
}
