// The radio constants of the detail platform, each with where it comes from (source, basis, date, our estimate or
// not), editable: a typed value becomes "your value" with a way back to the cited one, and planning's check says
// beside the field what is wrong with it (a negative current, a zero voltage). Every figure follows an accepted value.
import { RADIO_LABELS, radioModelFor, type Cited } from "#planning";
import { editRadio, useBudget } from "./budgetStore.ts";
import { NumberInput } from "../inputs.tsx";

function isCited(v: unknown): v is Cited {
  return typeof v === "object" && v !== null && "value" in v && "source" in v;
}

/** The platform's cited constants in the catalog's order: name and citation. */
export function radioConstants(platformId: string): [string, Cited][] {
  const radio = radioModelFor(platformId);
  return radio ? Object.entries(radio).filter((e): e is [string, Cited] => isCited(e[1])) : [];
}

// a fraction (duty cycle) reads better as written in the catalog: 0.01, not 1.0000000000000002e-2
const shown = (v: number) => Number(v.toPrecision(12));

export function RadioForm({ platformId, platformName }: { platformId: string; platformName: string }) {
  const typed = useBudget((s) => s.radioDraft[platformId]);
  const errors = useBudget((s) => s.radioErrors[platformId]);
  const constants = radioConstants(platformId);
  if (!constants.length)
    return (
      <p className="empty" data-testid="budget-radio-empty">
        {platformName} has no radio constants to edit.
      </p>
    );
  return (
    <table className="data budget-radio" data-testid="budget-radio">
      <thead>
        <tr>
          <th scope="col">Constant</th>
          <th scope="col">Value</th>
          <th scope="col">Source</th>
        </tr>
      </thead>
      <tbody>
        {constants.map(([name, c]) => {
          const mine = typed?.[name];
          const error = errors?.[name];
          const label = RADIO_LABELS[name] ?? name;
          return (
            <tr key={name} data-testid={`budget-radio-${name}`}>
              <th scope="row">{label}</th>
              <td className="nowrap">
                <div className="decide-inline">
                  <NumberInput
                    label={`${label} (${platformName})`}
                    value={shown(mine ?? c.value)}
                    testId={`budget-radio-input-${name}`}
                    width={90}
                    onCommit={(v) => editRadio(platformId, name, v)}
                  />
                  <span className="muted">{c.unit}</span>
                </div>
                {error ? (
                  <div className="attention-text" role="alert" data-testid={`budget-radio-error-${name}`}>
                    {error}
                  </div>
                ) : null}
              </td>
              <td className="wrap">
                {mine !== undefined ? (
                  <span data-testid={`budget-radio-yours-${name}`}>
                    <strong>your value</strong>
                    <span className="faint">
                      {" "}
                      · cited {shown(c.value)} {c.unit}
                    </span>{" "}
                    <button
                      type="button"
                      className="btn small ghost"
                      data-testid={`budget-radio-reset-${name}`}
                      onClick={() => editRadio(platformId, name, undefined)}
                    >
                      Back to the cited value
                    </button>
                  </span>
                ) : (
                  <span className="faint" data-testid={`budget-radio-source-${name}`}>
                    {c.estimate ? "our estimate: " : ""}
                    {c.basis} ({c.source}, {c.date})
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
