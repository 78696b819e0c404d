// The run's configuration: layout, format, device model, timing and target.
import { FORMAT_IDS, FORMAT_LABELS } from "#codecs";
import { offeredRps, plannedSeconds, runSettingsSchema } from "#contracts/loadtest/spec.ts";
import { stackLacksTransport } from "#host/api/loadtest.ts";
import { INGEST_TRANSPORT_LABELS, INGEST_TRANSPORTS, type IngestTransport } from "#planning/ingest";
import { formSettings, startBlockedReason, type FormField, type FormIssues } from "./form.ts";
import { ActionButton, Card, ErrorLine } from "./loadTestParts.tsx";
import { runLoad, setForm, stackRunning, useLoadTest, type LoadTestForm } from "./loadTestStore.ts";
import { useDesigner } from "../../state/layoutStore.ts";

/** a label, its input(s) and the problems of those inputs right below them */
function Field({
  label,
  issues,
  children,
  htmlFor,
  testId,
}: {
  label: string;
  issues?: (string | undefined)[];
  children: React.ReactNode;
  htmlFor: string;
  testId: string;
}) {
  const shown = (issues ?? []).filter((i): i is string => !!i);
  return (
    <div className="lt-field">
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {shown.map((i) => (
        <span key={i} className="lt-issue" role="alert" data-testid={`${testId}-issue`}>
          {i}
        </span>
      ))}
    </div>
  );
}

function NumberInput({
  name,
  value,
  testId,
  issues,
  step = "any",
  disabled,
}: {
  name: FormField;
  value: string;
  testId: string;
  issues: FormIssues;
  step?: string;
  disabled?: boolean;
}) {
  const issue = issues[name];
  return (
    <input
      id={`lt-${name}`}
      className={`input num${issue ? " invalid" : ""}`}
      inputMode="decimal"
      data-testid={testId}
      aria-invalid={issue ? true : undefined}
      title={issue}
      value={value}
      step={step}
      disabled={disabled}
      onChange={(e) => setForm({ [name]: e.target.value } as Partial<LoadTestForm>)}
    />
  );
}

/** what each transport's devices do, under the select */
const TRANSPORT_NOTES: Record<IngestTransport, string> = {
  http: "POST /ingest; answered once the record is durable",
  mqtt: "one MQTT connection per device, QoS 1 publish to satpayload/<device>/<layout>/<format>/<id>; PUBACK once durable",
  coap: "confirmable POST /ingest over UDP (one endpoint per generator thread); ACK once durable",
};

/** where the running stack answers, for the target line */
function stackLabel(s: ReturnType<typeof useLoadTest.getState>["stack"]): string {
  if (!s?.endpoints || !stackRunning(s)) return "not running";
  return `${s.options?.replicas ?? "?"} replica(s) at ${new URL(s.endpoints.ingest).host}${s.owner === "cli" ? ", started by satpayload stack up" : ""}`;
}

export function ConfigCard() {
  const f = useLoadTest((s) => s.form);
  const layouts = useLoadTest((s) => s.layouts);
  const projectId = useDesigner((s) => s.projectId);
  const projectName = useDesigner((s) => s.projectName);
  const stack = useLoadTest((s) => s.stack);
  const running = useLoadTest((s) => s.active !== null);
  const parsed = formSettings(f);
  const issues: FormIssues = parsed.ok ? {} : { ...parsed.issues };
  if (f.target === "stack" && !stackRunning(stack))
    issues.target = "no stack is running: start it on the Stack page, or pick a stack for this run only";
  else if (f.target === "stack" && f.transport !== "http" && !stack?.endpoints?.[f.transport])
    issues.transport ??= stackLacksTransport(INGEST_TRANSPORT_LABELS[f.transport], `--${f.transport}-port`);
  const plan = parsed.ok ? runSettingsSchema.safeParse(parsed.settings) : null;
  const blocked = startBlockedReason(issues);
  const issue = (k: FormField) => issues[k];
  return (
    <Card title="Configure" testId="lt-config">
      <Field label="Layout" htmlFor="lt-layout" testId="lt-layout">
        <select
          id="lt-layout"
          className="select"
          data-testid="lt-layout"
          value={f.layout}
          onChange={(e) => setForm({ layout: e.target.value })}
        >
          {layouts.length === 0 ? (
            <option value={f.layout}>
              {f.layout === `project:${projectId}` ? `${projectName} (project)` : "Loading the layouts…"}
            </option>
          ) : null}
          {layouts.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </select>
      </Field>
      <div className="lt-pair">
        <Field label="Format" htmlFor="lt-format" testId="lt-format">
          <select
            id="lt-format"
            className="select"
            data-testid="lt-format"
            value={f.format}
            onChange={(e) => setForm({ format: e.target.value })}
          >
            {FORMAT_IDS.map((id) => (
              <option key={id} value={id}>
                {FORMAT_LABELS[id]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Load model" htmlFor="lt-mode" testId="lt-mode">
          <select
            id="lt-mode"
            className="select"
            data-testid="lt-mode"
            value={f.mode}
            onChange={(e) => setForm({ mode: e.target.value as LoadTestForm["mode"] })}
          >
            <option value="closed">Devices (closed loop)</option>
            <option value="open">Arrival rate (open loop)</option>
          </select>
        </Field>
      </div>
      <div className="lt-pair">
        <Field
          label={f.mode === "open" ? "Max in flight" : "Devices"}
          htmlFor="lt-devices"
          issues={[issue("devices")]}
          testId="lt-devices"
        >
          <NumberInput name="devices" value={f.devices} testId="lt-devices" issues={issues} step="1" />
        </Field>
        {f.mode === "open" ? (
          <Field label="Requests / s" htmlFor="lt-rate" issues={[issue("rate")]} testId="lt-rate">
            <NumberInput name="rate" value={f.rate} testId="lt-rate" issues={issues} />
          </Field>
        ) : (
          <Field label="Spawn rate / s" htmlFor="lt-spawnRate" issues={[issue("spawnRate")]} testId="lt-spawn-rate">
            <NumberInput name="spawnRate" value={f.spawnRate} testId="lt-spawn-rate" issues={issues} />
          </Field>
        )}
      </div>
      {f.mode === "closed" ? (
        <Field
          label="Wait after each answer"
          htmlFor="lt-waitKind"
          issues={[issue("waitA"), issue("waitB")]}
          testId="lt-wait"
        >
          <div className="lt-wait">
            <select
              id="lt-waitKind"
              className="select"
              data-testid="lt-wait-kind"
              value={f.waitKind}
              onChange={(e) => setForm({ waitKind: e.target.value as LoadTestForm["waitKind"] })}
            >
              <option value="uniform">uniform between</option>
              <option value="constant">constant</option>
              <option value="exponential">exponential, mean</option>
            </select>
            <NumberInput name="waitA" value={f.waitA} testId="lt-wait-a" issues={issues} />
            {f.waitKind === "uniform" ? (
              <>
                <span className="muted">and</span>
                <NumberInput name="waitB" value={f.waitB} testId="lt-wait-b" issues={issues} />
              </>
            ) : null}
            <span className="muted">s</span>
          </div>
        </Field>
      ) : null}
      <div className="lt-pair">
        <Field label="Duration (s)" htmlFor="lt-duration" issues={[issue("duration")]} testId="lt-duration">
          <NumberInput name="duration" value={f.duration} testId="lt-duration" issues={issues} />
        </Field>
        <Field label="Warm-up (s)" htmlFor="lt-warmup" issues={[issue("warmup")]} testId="lt-warmup">
          <NumberInput name="warmup" value={f.warmup} testId="lt-warmup" issues={issues} />
        </Field>
      </div>
      <Field label="Target" htmlFor="lt-target" issues={[issue("target"), issue("replicas")]} testId="lt-target">
        <div className="lt-wait">
          <select
            id="lt-target"
            className="select"
            data-testid="lt-target"
            value={f.target}
            onChange={(e) => setForm({ target: e.target.value as LoadTestForm["target"] })}
          >
            <option value="stack">Running stack (Stack page)</option>
            <option value="local">New stack for this run only</option>
            <option value="url">URL</option>
          </select>
          {f.target === "local" ? (
            <>
              <NumberInput name="replicas" value={f.replicas} testId="lt-replicas" issues={issues} step="1" />
              <span className="muted">replicas</span>
            </>
          ) : null}
        </div>
        {f.target === "stack" && stackRunning(stack) ? (
          <span className="muted lt-target-note" data-testid="lt-target-stack">
            {stackLabel(stack)}: its records show on the Stack page
          </span>
        ) : null}
        {f.target === "local" ? (
          <span className="muted lt-target-note" data-testid="lt-target-private">
            started and stopped with the run; the Stack page does not see its records
          </span>
        ) : null}
      </Field>
      {f.target === "url" ? (
        <Field label="Ingest URL" htmlFor="lt-url" issues={[issue("url")]} testId="lt-url">
          <input
            id="lt-url"
            className="input mono"
            data-testid="lt-url"
            value={f.url}
            onChange={(e) => setForm({ url: e.target.value })}
          />
        </Field>
      ) : null}
      <Field label="Transport" htmlFor="lt-transport" issues={[issue("transport")]} testId="lt-transport">
        <select
          id="lt-transport"
          className={`select${issue("transport") ? " invalid" : ""}`}
          data-testid="lt-transport"
          aria-invalid={issue("transport") ? true : undefined}
          value={f.transport}
          onChange={(e) => setForm({ transport: e.target.value as IngestTransport })}
        >
          {INGEST_TRANSPORTS.map((t) => (
            <option key={t} value={t}>
              {INGEST_TRANSPORT_LABELS[t]}
            </option>
          ))}
        </select>
        <span className="muted lt-target-note" data-testid="lt-transport-note">
          {TRANSPORT_NOTES[f.transport]}
        </span>
      </Field>
      {f.transport === "http" ? (
        <Field label="Connections" htmlFor="lt-connection" testId="lt-connection">
          <select
            id="lt-connection"
            className="select"
            data-testid="lt-connection"
            value={f.connection}
            onChange={(e) => setForm({ connection: e.target.value as LoadTestForm["connection"] })}
          >
            <option value="keep-alive">one keep-alive connection per device</option>
            <option value="close">a new connection per request</option>
          </select>
        </Field>
      ) : null}
      <p className="lt-plan muted" data-testid="lt-plan">
        {plan?.success
          ? `≈ ${Math.ceil(plannedSeconds(plan.data))} s in all; offered load ${offeredRps(plan.data)?.toFixed(0) ?? "–"} requests/s`
          : null}
      </p>
      <div className="lt-row">
        <ActionButton
          action="start"
          primary
          testId="lt-start"
          disabled={running || blocked !== null}
          title={running ? "A run is in progress" : (blocked ?? undefined)}
          onClick={() => void runLoad()}
        >
          Start load test
        </ActionButton>
        {blocked && !running ? (
          <span className="lt-issue" data-testid="lt-start-blocked">
            {blocked}
          </span>
        ) : null}
      </div>
      <ErrorLine action="start" />
    </Card>
  );
}
