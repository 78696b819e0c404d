// Port picker (simulators and serial ports, with why a port cannot be used), connect/disconnect, link state.
import { ActionButton, ErrorLine } from "./benchParts.tsx";
import { act, disconnect, refreshPorts, useBench } from "./benchStore.ts";

const STATE_LABEL = {
  disconnected: "Not connected",
  connecting: "Connecting…",
  ready: "Connected",
  reconnecting: "Reconnecting…",
} as const;

export function ConnectionBar() {
  const ports = useBench((s) => s.ports);
  const selected = useBench((s) => s.selectedPort);
  const status = useBench((s) => s.status);
  const state = status?.state ?? "disconnected";
  const connected = state === "ready" || state === "reconnecting";
  const sims = ports.filter((p) => p.kind === "simulator");
  const serial = ports.filter((p) => p.kind === "serial");
  const chosen = ports.find((p) => p.id === selected);
  return (
    <div className="bench-connection">
      <label className="bench-inline">
        <span className="faint">Port</span>
        <select
          className="select"
          data-testid="port-select"
          value={selected}
          disabled={connected}
          onChange={(e) => useBench.setState({ selectedPort: e.target.value })}
        >
          <optgroup label="Simulator">
            {sims.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </optgroup>
          <optgroup label={serial.length ? "Serial ports" : "Serial ports (none found)"}>
            {serial.map((p) => (
              <option key={p.id} value={p.id} disabled={!p.accessible}>
                {p.label}
                {p.likelyDevkit ? " · USB serial" : ""}
                {!p.accessible ? " · no access" : ""}
              </option>
            ))}
          </optgroup>
        </select>
      </label>
      <ActionButton action="ports" onClick={() => void refreshPorts()} title="Look for serial ports again">
        Refresh
      </ActionButton>
      {connected ? (
        <ActionButton action="connect" testId="disconnect" onClick={() => void disconnect()}>
          Disconnect
        </ActionButton>
      ) : (
        <ActionButton
          action="connect"
          primary
          testId="connect"
          disabled={!selected || state === "connecting"}
          onClick={() => void act("connect", (h) => h.call("devkit.connect", { port: selected }))}
        >
          Connect
        </ActionButton>
      )}
      <span
        className={`bench-state ${state}`}
        data-testid="devkit-state"
        data-state={state}
        role="status"
        title={status?.detail}
      >
        <span className="dot" aria-hidden="true" />
        {STATE_LABEL[state]}
        {status?.productName && connected ? ` · ${status.productName}` : ""}
        {status?.simulated && connected ? " (simulated)" : ""}
      </span>
      {status?.simulatorPath && connected ? (
        <span className="faint mono small-text">{status.simulatorPath}</span>
      ) : null}
      {chosen?.hint ? <span className="bench-hint">{chosen.hint}</span> : null}
      <ErrorLine action={["connect", "ports"]} />
    </div>
  );
}

export function PortProblems() {
  const problems = useBench((s) => s.portProblems);
  const detail = useBench((s) => (s.status?.state === "reconnecting" ? s.status.detail : null));
  if (!problems.length && !detail) return null;
  return (
    <div className="banner attention" role="status" data-testid="port-problems">
      <span>{[detail, ...problems].filter(Boolean).join(" · ")}</span>
    </div>
  );
}
