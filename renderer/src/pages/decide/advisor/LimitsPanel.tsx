// What the user will not give up: a lock per field, and for rounded values the coarsest step the advisor may choose,
// shown as the worst error it allows (metres for positions).
import type { Layout } from "#codecs";
import { declaredStep, leafFields, lossText, short } from "#planning/advisor";
import { NumberInput } from "../inputs.tsx";
import { setLocked, setMaxStep, useAdvisor } from "./advisorStore.ts";

export function LimitsPanel({ layout }: { layout: Layout }) {
  const locked = useAdvisor((s) => s.locked);
  const maxStep = useAdvisor((s) => s.maxStep);
  const leaves = leafFields(layout.fields);
  const count = leaves.filter(({ field }) => locked.includes(field.id) || maxStep[field.id] !== undefined).length;
  return (
    <details className="panel advisor-limits" data-testid="advisor-limits" open={count > 0 ? true : undefined}>
      <summary>
        <h3>
          Precision limits{" "}
          <span className="sub">
            {count
              ? `${count} field${count === 1 ? "" : "s"} limited`
              : "lock a field, or set the coarsest step the advisor may round it to"}
          </span>
        </h3>
      </summary>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Declared step</th>
            <th scope="col">Lock</th>
            <th scope="col">Coarsest step allowed</th>
            <th scope="col">Worst error allowed</th>
          </tr>
        </thead>
        <tbody>
          {leaves.map(({ field, keys }) => {
            const id = field.id;
            const path = keys.join(".");
            const step = declaredStep(field);
            const isLocked = locked.includes(id);
            const unit = field.type.kind === "timestamp" ? "s" : (field.unit ?? "");
            const limit = maxStep[id];
            return (
              <tr key={id} data-testid={`limit-${path}`}>
                <th scope="row">
                  {field.name} <span className="faint">{path}</span>
                </th>
                <td>
                  {step === undefined ? <span className="faint">—</span> : `${short(step)}${unit ? ` ${unit}` : ""}`}
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Lock ${path}`}
                    data-testid={`lock-${path}`}
                    checked={isLocked}
                    onChange={(e) => setLocked(id, e.target.checked)}
                  />
                </td>
                <td>
                  {step === undefined || isLocked ? (
                    <span className="faint">{isLocked ? "locked" : "not rounded"}</span>
                  ) : (
                    <>
                      <NumberInput
                        label={`Coarsest step of ${path}`}
                        value={limit}
                        optional
                        min={step}
                        width={90}
                        testId={`maxstep-${path}`}
                        onCommit={(v) => setMaxStep(id, v)}
                      />{" "}
                      {unit}
                    </>
                  )}
                </td>
                <td data-testid={`maxerror-${path}`}>
                  {limit !== undefined && !isLocked ? (
                    lossText(field, limit / 2)
                  ) : (
                    <span className="faint">{isLocked ? "exact" : "any"}</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="note">
        The step a field declares is its contract: rounding it to a step n times coarser gives up log2(n) bits per
        value, whatever the samples hold.
      </p>
    </details>
  );
}
