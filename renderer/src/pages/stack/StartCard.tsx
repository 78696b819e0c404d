// The empty state: what the stack is, and the form that starts it.
import { RoutesField } from "./RoutesField.tsx";
import { coapProblem, formProblem, setForm, stackUp, useStack } from "./stackStore.ts";

export function StartCard() {
  const form = useStack((s) => s.form);
  const busy = useStack((s) => s.busy);
  const problem = formProblem(form);
  const coap = coapProblem(form);
  return (
    <section className="card stack-start" data-testid="stack-empty" aria-label="Start the stack">
      <div className="stack-start-text">
        <h2>The stack is not running</h2>
        <p>
          Start a decoder that accepts every format the designer knows, buffers each record durably in SQLite and
          forwards it to a oneM2M CSE as a contentInstance — the server side of Kumar et al. 2026. Devices, portals and
          load tests then send to its <code>/ingest</code> endpoint and this page shows what arrives, live. The
          paper&apos;s device clients post to <code>/container-data</code> and Astrocast&apos;s portal to{" "}
          <code>/astrocast-callback</code> unchanged.
        </p>
        <ol className="stack-flow" aria-label="What runs">
          <li>
            <strong>Decoder</strong>{" "}
            <span className="muted">
              HTTP ingest (MQTT and CoAP if ticked), all layouts of this app, group-committed SQLite buffer
            </span>
          </li>
          <li>
            <strong>Forwarder</strong> <span className="muted">in order, retried with backoff, nothing dropped</span>
          </li>
          <li>
            <strong>CSE</strong>{" "}
            <span className="muted">the embedded Mobius-compatible one, or your Mobius / ACME</span>
          </li>
        </ol>
      </div>
      <form
        className="stack-form"
        onSubmit={(e) => {
          e.preventDefault();
          void stackUp();
        }}
      >
        <label className="stack-field">
          <span>Decoder replicas</span>
          <input
            className={`input num${/^\d+$/.test(form.replicas) && +form.replicas >= 1 && +form.replicas <= 16 ? "" : " invalid"}`}
            data-testid="stack-replicas"
            inputMode="numeric"
            value={form.replicas}
            onChange={(e) => setForm({ replicas: e.target.value.trim() })}
          />
          <small className="faint">worker processes on one port (node:cluster), one buffer each</small>
        </label>
        <fieldset className="stack-field">
          <legend>Containers in the CSE</legend>
          <div className="segmented" role="group">
            <button
              type="button"
              aria-pressed={form.container === "device"}
              data-testid="stack-container-device"
              onClick={() => setForm({ container: "device" })}
            >
              One per device
            </button>
            <button
              type="button"
              aria-pressed={form.container === "shared"}
              data-testid="stack-container-shared"
              onClick={() => setForm({ container: "shared" })}
            >
              One shared
            </button>
          </div>
        </fieldset>
        <fieldset className="stack-field">
          <legend>CSE</legend>
          <div className="segmented" role="group">
            <button
              type="button"
              aria-pressed={form.target === "embedded"}
              data-testid="stack-cse-embedded"
              onClick={() => setForm({ target: "embedded" })}
            >
              Embedded
            </button>
            <button
              type="button"
              aria-pressed={form.target === "acme"}
              data-testid="stack-cse-acme"
              onClick={() => setForm({ target: "acme" })}
            >
              ACME
            </button>
            <button
              type="button"
              aria-pressed={form.target === "external"}
              data-testid="stack-cse-external"
              onClick={() => setForm({ target: "external" })}
            >
              Mobius / ACME URL
            </button>
          </div>
          {form.target === "external" ? (
            <input
              className={`input mono${problem && form.cseUrl ? " invalid" : ""}`}
              data-testid="stack-cse-url"
              placeholder="http://127.0.0.1:7579/Mobius"
              value={form.cseUrl}
              onChange={(e) => setForm({ cseUrl: e.target.value })}
            />
          ) : form.target === "acme" ? (
            <small className="faint">
              a real ACME (acmecse from PyPI) on loopback, in memory; installed into the app&apos;s data folder on first
              use
            </small>
          ) : (
            <small className="faint">zero setup; point production at a real Mobius or ACME</small>
          )}
          {form.target !== "external" ? (
            <label className="stack-check">
              <input
                type="checkbox"
                data-testid="stack-verify-subscriptions"
                checked={form.verifySubscriptions}
                onChange={(e) => setForm({ verifySubscriptions: e.target.checked })}
              />
              Verify subscriptions (the CSE checks each new notification URI first)
            </label>
          ) : null}
        </fieldset>
        <fieldset className="stack-field">
          <legend>Devices may also send over</legend>
          <label className="stack-check">
            <input
              type="checkbox"
              data-testid="stack-mqtt"
              checked={form.mqtt}
              onChange={(e) => setForm({ mqtt: e.target.checked })}
            />
            MQTT (QoS 1: PUBACK after the durable commit)
          </label>
          <label className="stack-check">
            <input
              type="checkbox"
              data-testid="stack-coap"
              checked={form.coap}
              onChange={(e) => setForm({ coap: e.target.checked })}
            />
            CoAP (2.01 after the durable commit)
          </label>
          {coap ? (
            <small className="stack-problem" data-testid="stack-coap-problem">
              {coap}
            </small>
          ) : (
            <small className="faint">
              on free ports of 127.0.0.1; the endpoints list shows them once the stack runs
            </small>
          )}
        </fieldset>
        <RoutesField />
        {problem && problem !== coap && (form.target === "external" ? form.cseUrl !== "" : true) ? (
          <p className="stack-problem" data-testid="stack-form-problem">
            {problem}
          </p>
        ) : null}
        <button
          type="submit"
          className="btn primary"
          data-testid="stack-start"
          disabled={!!problem || busy !== null}
          aria-busy={busy === "up"}
        >
          {busy === "up" ? "Starting…" : "Start the stack"}
        </button>
      </form>
    </section>
  );
}
