// The transport stack of every platform in the scenario: what each message carries on air, so what it is billed and whether it fits.
import { type FleetScenario, platformById, stackFor } from "#planning";
import { StackSelect } from "../../../ui/StackSelect.tsx";
import { editScenario } from "../decideStore.ts";
import { Row } from "../inputs.tsx";

export function TransportEditor({ s }: { s: FleetScenario }) {
  return (
    <>
      {s.platforms.map((id) => {
        const platform = platformById(id);
        const stack = stackFor(s, id);
        if (!platform || !stack) return null;
        return (
          <Row key={id} label={platform.name.replace(/ \(.*\)$/, "")}>
            <StackSelect
              platform={platform}
              value={stack}
              testId={`transport-${id}`}
              onChange={(v) => editScenario((x) => ({ ...x, transport: { ...x.transport, [id]: v } }))}
            />
          </Row>
        );
      })}
      <p className="note">
        A modem link carries the payload itself. On an IP link every message, and every fragment, carries its stack's
        headers: they are billed with it and count against a datagram limit.
      </p>
    </>
  );
}
