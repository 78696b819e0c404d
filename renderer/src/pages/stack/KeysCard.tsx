// Who may write to and read from the stack: device, fleet and reader keys and webhook secrets, in the
// same credentials file `satpayload stack keys` edits. A new secret is shown once, with a copy button.
import { useCallback, useEffect, useState } from "react";
import type { StackKey } from "#host/api/stack.ts";
import { copyText } from "./format.ts";
import { asHostError } from "../../host/errors.ts";
import { useSession } from "../../session/sessionStore.ts";

type Role = StackKey["role"];
const ROLE_TEXT: Record<Role, string> = { device: "Device", fleet: "Fleet", reader: "Reader", webhook: "Webhook" };
const ROLE_HINT: Record<Role, string> = {
  device: "writes the records of one device only",
  fleet: "writes any device's records (a gateway, a portal relay)",
  reader: "reads /api/* and the event stream",
  webhook: "signs a portal's callbacks: X-Satpayload-Signature: sha256=<HMAC of the body>",
};

export function KeysCard() {
  const api = useSession((s) => s.api);
  const [keys, setKeys] = useState<StackKey[] | null>(null);
  const [file, setFile] = useState("");
  const [role, setRole] = useState<Role>("device");
  const [target, setTarget] = useState("");
  const [label, setLabel] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<{ id: string; secret: string } | null>(null);
  const [copied, setCopied] = useState(false);

  const load = useCallback(async () => {
    if (!api) return;
    try {
      const r = await api.call("stack.keys.list", {});
      setKeys(r.keys);
      setFile(r.file);
      setError(null);
    } catch (e) {
      setError(asHostError(e).describe());
    }
  }, [api]);
  useEffect(() => void load(), [load]);

  const needsTarget = role === "device" || role === "webhook";
  async function add(): Promise<void> {
    if (!api) return;
    const t = target.trim();
    if (role === "device" && !t) return setFieldError("Name the device this key writes for");
    if (role === "webhook" && !/^\/[A-Za-z0-9._~/-]*$/.test(t))
      return setFieldError("A path such as /astrocast-callback");
    setFieldError(null);
    try {
      const req =
        role === "device"
          ? { role, device: t, label }
          : role === "webhook"
            ? { role, route: t, label }
            : { role, label };
      const r = await api.call("stack.keys.add", req);
      setShown(r);
      setCopied(false);
      setTarget("");
      setLabel("");
      await load();
    } catch (e) {
      const he = asHostError(e);
      const issue = he.issues?.[0];
      if (issue && (issue.path === "device" || issue.path === "route")) setFieldError(issue.message);
      else setError(he.describe());
    }
  }
  async function revokeKey(id: string): Promise<void> {
    if (!api) return;
    try {
      await api.call("stack.keys.revoke", { id });
      if (shown?.id === id) setShown(null);
      await load();
    } catch (e) {
      setError(asHostError(e).describe());
    }
  }

  const active = keys?.filter((k) => k.revoked === null) ?? [];
  const writers = active.some((k) => k.role === "device" || k.role === "fleet");
  return (
    <section className="card stack-card stack-keys" data-testid="stack-keys" aria-label="Keys">
      <header className="stack-card-head">
        <h2 className="section-title">Keys</h2>
        <span className="faint stack-small" data-testid="stack-keys-mode">
          {writers
            ? "Writes need a device or fleet key (401 without, 403 with a wrong one)."
            : "No device or fleet key yet: this machine's devices write without one."}
        </span>
      </header>
      {error ? (
        <p className="stack-problem" role="alert" data-testid="stack-keys-error">
          {error}
        </p>
      ) : null}
      {shown ? (
        <div className="stack-secret" data-testid="stack-key-secret" role="status">
          <div>
            <strong>Copy it now</strong> — it is shown only this once; the file keeps{" "}
            {shown.secret.startsWith("spk_") ? "only its hash" : "it for the signature check"}.
          </div>
          <code className="mono" data-testid="stack-key-secret-value">
            {shown.secret}
          </code>
          <button
            type="button"
            className="btn small"
            onClick={() =>
              void copyText(shown.secret).then((ok) => {
                setCopied(ok);
              })
            }
          >
            {copied ? "Copied" : "Copy"}
          </button>
          <button type="button" className="btn small ghost" onClick={() => setShown(null)}>
            Done
          </button>
        </div>
      ) : null}
      <form
        className="stack-keys-form"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <div className="segmented" role="group" aria-label="Kind of key">
          {(Object.keys(ROLE_TEXT) as Role[]).map((r) => (
            <button
              key={r}
              type="button"
              className={role === r ? "active" : ""}
              aria-pressed={role === r}
              data-testid={`stack-key-role-${r}`}
              onClick={() => (setRole(r), setFieldError(null))}
            >
              {ROLE_TEXT[r]}
            </button>
          ))}
        </div>
        {needsTarget ? (
          <label className="stack-field">
            <span>{role === "device" ? "Device id" : "Route"}</span>
            <input
              className={`input mono${fieldError ? " invalid" : ""}`}
              data-testid="stack-key-target"
              placeholder={role === "device" ? "C-0001" : "/astrocast-callback"}
              value={target}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? "stack-key-target-error" : undefined}
              onChange={(e) => setTarget(e.target.value)}
            />
            {fieldError ? (
              <small className="stack-problem" id="stack-key-target-error" data-testid="stack-key-target-error">
                {fieldError}
              </small>
            ) : null}
          </label>
        ) : null}
        <label className="stack-field">
          <span>Label</span>
          <input
            className="input"
            data-testid="stack-key-label"
            placeholder="optional"
            maxLength={200}
            value={label}
            onChange={(e) => setLabel(e.target.value)}
          />
        </label>
        <button type="submit" className="btn primary" data-testid="stack-key-add" disabled={!api}>
          Add {ROLE_TEXT[role].toLowerCase()} {role === "webhook" ? "secret" : "key"}
        </button>
        <small className="faint">{ROLE_HINT[role]}</small>
      </form>
      {keys === null ? null : keys.length === 0 ? (
        <p className="faint stack-small" data-testid="stack-keys-empty">
          No keys yet. Add one here or with <code>satpayload stack keys add</code>; they live in{" "}
          <code className="mono">{file}</code>.
        </p>
      ) : (
        <table className="stack-table" data-testid="stack-keys-table">
          <thead>
            <tr>
              <th>Id</th>
              <th>Kind</th>
              <th>Device / route</th>
              <th>Label</th>
              <th>Created</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id} data-testid={`stack-key-${k.id}`} className={k.revoked ? "revoked" : undefined}>
                <td className="mono">{k.id}</td>
                <td>{ROLE_TEXT[k.role]}</td>
                <td className="mono">{k.device ?? k.route ?? "—"}</td>
                <td>{k.label}</td>
                <td>{new Date(k.created).toLocaleString()}</td>
                <td>
                  {k.revoked ? (
                    <span className="faint">revoked</span>
                  ) : (
                    <button
                      type="button"
                      className="btn small"
                      data-testid={`stack-key-revoke-${k.id}`}
                      onClick={() => void revokeKey(k.id)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
