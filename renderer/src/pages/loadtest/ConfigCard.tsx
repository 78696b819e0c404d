// The run's configuration: layout, format, device model, timing and target.
import { FORMAT_IDS } from "../../../../codecs/src/formats/types.ts";
import { offeredRps, plannedSeconds, runSettingsSchema } from "../../../../services/loadgen/src/spec.ts";
import { FORMAT_LABELS } from "../../../../services/loadgen/src/table.ts";
import { formSettings, runLoad, setForm, useLoadTest, type LoadTestForm } from "./store.ts";
import { ActionButton, Card, ErrorLine } from "./ui.tsx";

function Field({ label, issue, children, htmlFor }: { label: string; issue?: string | undefined; children: React.ReactNode; htmlFor: string }) {
  return (
    <div className="lt-field">
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {issue ? (
        <span className="lt-issue" role="alert">
          {issue}
        </span>
      ) : null}
    </div>
  );
}

function NumberInput({ name, value, testId, step = "any", disabled }: { name: keyof LoadTestForm; value: string; testId: string; step?: string; disabled?: boolean }) {
  const issues = useLoadTest((s) => s.issues);
  const bad = Object.keys(issues).some((k) => k.startsWith(String(name)));
  return <input id={`lt-${name}`} className={`input num${bad ? " invalid" : ""}`} inputMode="decimal" data-testid={testId} value={value} step={step} disabled={disabled} onChange={(e) => setForm({ [name]: e.target.value } as Partial<LoadTestForm>)} />;
}

export function ConfigCard() {
  const f = useLoadTest((s) => s.form);
  const layouts = useLoadTest((s) => s.layouts);
  const issues = useLoadTest((s) => s.issues);
  const running = useLoadTest((s) => s.active !== null);
  const parsed = formSettings(f);
  const plan = parsed.ok ? runSettingsSchema.safeParse(parsed.settings) : null;
  const issue = (...keys: string[]) => keys.map((k) => Object.entries(issues).find(([p]) => p === k || p.startsWith(`${k}.`))?.[1]).find(Boolean);
  return (
    <Card title="Configure" testId="lt-config">
      <Field label="Layout" htmlFor="lt-layout">
        <select id="lt-layout" className="select" data-testid="lt-layout" value={f.layout} onChange={(e) => setForm({ layout: e.target.value })}>
          {layouts.length === 0 ? <option value={f.layout}>Maritime container (Kumar et al. 2026) (preset)</option> : null}
          {layouts.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </select>
      </Field>
      <div className="lt-pair">
        <Field label="Format" htmlFor="lt-format">
          <select id="lt-format" className="select" data-testid="lt-format" value={f.format} onChange={(e) => setForm({ format: e.target.value })}>
            {FORMAT_IDS.map((id) => (
              <option key={id} value={id}>
                {FORMAT_LABELS[id]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Load model" htmlFor="lt-mode">
          <select id="lt-mode" className="select" data-testid="lt-mode" value={f.mode} onChange={(e) => setForm({ mode: e.target.value as LoadTestForm["mode"] })}>
            <option value="closed">Devices (closed loop)</option>
            <option value="open">Arrival rate (open loop)</option>
          </select>
        </Field>
      </div>
      <div className="lt-pair">
        <Field label={f.mode === "open" ? "Max in flight" : "Devices"} htmlFor="lt-devices" issue={issue("devices")}>
          <NumberInput name="devices" value={f.devices} testId="lt-devices" step="1" />
        </Field>
        {f.mode === "open" ? (
          <Field label="Requests / s" htmlFor="lt-rate" issue={issue("arrivalRate")}>
            <NumberInput name="rate" value={f.rate} testId="lt-rate" />
          </Field>
        ) : (
          <Field label="Spawn rate / s" htmlFor="lt-spawnRate" issue={issue("spawnRate")}>
            <NumberInput name="spawnRate" value={f.spawnRate} testId="lt-spawn-rate" />
          </Field>
        )}
      </div>
      {f.mode === "closed" ? (
        <Field label="Wait after each answer" htmlFor="lt-waitKind" issue={issue("wait")}>
          <div className="lt-wait">
            <select id="lt-waitKind" className="select" data-testid="lt-wait-kind" value={f.waitKind} onChange={(e) => setForm({ waitKind: e.target.value as LoadTestForm["waitKind"] })}>
              <option value="uniform">uniform between</option>
              <option value="constant">constant</option>
              <option value="exponential">exponential, mean</option>
            </select>
            <NumberInput name="waitA" value={f.waitA} testId="lt-wait-a" />
            {f.waitKind === "uniform" ? (
              <>
                <span className="muted">and</span>
                <NumberInput name="waitB" value={f.waitB} testId="lt-wait-b" />
              </>
            ) : null}
            <span className="muted">s</span>
          </div>
        </Field>
      ) : null}
      <div className="lt-pair">
        <Field label="Duration (s)" htmlFor="lt-duration" issue={issue("durationSeconds")}>
          <NumberInput name="duration" value={f.duration} testId="lt-duration" />
        </Field>
        <Field label="Warm-up (s)" htmlFor="lt-warmup" issue={issue("warmupSeconds")}>
          <NumberInput name="warmup" value={f.warmup} testId="lt-warmup" />
        </Field>
      </div>
      <Field label="Target" htmlFor="lt-target" issue={issue("target")}>
        <div className="lt-wait">
          <select id="lt-target" className="select" data-testid="lt-target" value={f.target} onChange={(e) => setForm({ target: e.target.value as LoadTestForm["target"] })}>
            <option value="local">Local stack (decoder + CSE)</option>
            <option value="url">URL</option>
          </select>
          {f.target === "local" ? (
            <>
              <NumberInput name="replicas" value={f.replicas} testId="lt-replicas" step="1" />
              <span className="muted">replicas</span>
            </>
          ) : null}
        </div>
      </Field>
      {f.target === "url" ? (
        <Field label="Ingest URL" htmlFor="lt-url" issue={issue("target.url")}>
          <input id="lt-url" className="input mono" data-testid="lt-url" value={f.url} onChange={(e) => setForm({ url: e.target.value })} />
        </Field>
      ) : null}
      <Field label="Connections" htmlFor="lt-connection">
        <select id="lt-connection" className="select" data-testid="lt-connection" value={f.connection} onChange={(e) => setForm({ connection: e.target.value as LoadTestForm["connection"] })}>
          <option value="keep-alive">one keep-alive connection per device</option>
          <option value="close">a new connection per request</option>
        </select>
      </Field>
      <p className="lt-plan muted" data-testid="lt-plan">
        {plan?.success
          ? `≈ ${Math.ceil(plannedSeconds(plan.data))} s in all; offered load ${offeredRps(plan.data)?.toFixed(0) ?? "–"} requests/s`
          : "Fix the marked fields to start."}
      </p>
      <div className="lt-row">
        <ActionButton action="start" primary testId="lt-start" disabled={running} title={running ? "A run is in progress" : undefined} onClick={() => void runLoad()}>
          Start load test
        </ActionButton>
      </div>
      <ErrorLine action="start" />
    </Card>
  );
}
