// Performance counters (PER), module state (MST), last contact (LCD) and environment (END).
import {
  MAC_RESULTS,
  RESET_REASONS,
  END_FIELDS,
  LCD_FIELDS,
  MST_FIELDS,
  PER_FIELDS,
} from "#contracts/devkit/counters.ts";
import { ActionButton, Card, Empty, ErrorLine } from "./benchParts.tsx";
import { act, useBench } from "./benchStore.ts";

type Field = { key: string; label: string };

function Group({
  title,
  fields,
  values,
  show,
}: {
  title: string;
  fields: readonly Field[];
  values: Record<string, unknown>;
  show?: (k: string, v: number) => string;
}) {
  return (
    <div className="bench-counter-group">
      <p className="bench-sub">{title}</p>
      <dl className="bench-kv">
        {fields.map((f) => {
          const v = values[f.key];
          return (
            <div key={f.key} className="bench-kv-row">
              <dt>{f.label}</dt>
              <dd className="mono num" data-testid={`counter-${f.key}`}>
                {typeof v === "number" ? (show ? show(f.key, v) : String(v)) : "–"}
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

export function CountersCard() {
  const counters = useBench((s) => s.counters);
  const ready = useBench((s) => s.status?.state === "ready");
  const read = () => act("counters", async (h) => useBench.setState({ counters: await h.call("devkit.counters", {}) }));
  return (
    <Card
      title="Counters"
      testId="counters-card"
      actions={
        <>
          <ActionButton action="counters" disabled={!ready} testId="counters-read" onClick={() => void read()}>
            Read
          </ActionButton>
          <ActionButton
            action="counters"
            disabled={!ready}
            onClick={() => void act("counters", async (h) => (await h.call("devkit.countersClear", {}), await read()))}
          >
            Clear PER
          </ActionButton>
        </>
      }
    >
      {!counters ? (
        <Empty>{ready ? "Read the counters to see them." : "Connect to read the counters."}</Empty>
      ) : (
        <div className="bench-counters">
          <Group title="Performance (PER)" fields={PER_FIELDS} values={counters.per} />
          <Group
            title="Module state (MST)"
            fields={MST_FIELDS}
            values={counters.mst}
            show={(k, v) => (k === "lastResetReason" ? (RESET_REASONS[v] ?? String(v)) : String(v))}
          />
          <Group title="Last contact (LCD)" fields={LCD_FIELDS} values={counters.lcd} />
          <Group
            title="Environment (END)"
            fields={END_FIELDS}
            values={counters.end}
            show={(k, v) =>
              k === "lastMacResult" ? (MAC_RESULTS[v] ?? String(v)) : v === 0xffffffff ? "never" : String(v)
            }
          />
        </div>
      )}
      <ErrorLine action="counters" />
    </Card>
  );
}
