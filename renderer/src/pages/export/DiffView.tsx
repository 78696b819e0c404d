// The schema-evolution tab: two versions of the layout, and per wire format whether each side's
// decoders read the other's messages, why, and what to do, checked with the codecs on samples.
import { useEffect } from "react";
import { formatShortLabel as formatLabel, type Compat, type FormatVerdict } from "#codecs";
import { DeployedVersion, versionTitle } from "./DeployedVersion.tsx";
import { compareVersions, loadVersions, useExport } from "./exportStore.ts";

const WORD: Record<Compat, string> = { compatible: "compatible", degraded: "degraded", breaking: "breaking" };

function Verdict({ v, testid, observed }: { v: Compat; testid: string; observed?: Compat | undefined }) {
  return (
    <span className={`verdict verdict-${v}`} data-testid={testid} data-verdict={v}>
      {WORD[v]}
      {observed !== undefined && observed !== v && <span className="muted"> (samples: {observed})</span>}
    </span>
  );
}

/** A batch layout: each wire form's verdict in this direction (the cell's verdict is the worse). */
function FormVerdicts({ f, dir }: { f: FormatVerdict; dir: "oldReadsNew" | "newReadsOld" }) {
  if (!f.forms) return null;
  return (
    <span
      className="diff-forms muted"
      data-testid={`forms-${f.format}-${dir === "oldReadsNew" ? "old-reads-new" : "new-reads-old"}`}
    >
      {f.forms.map((x) => `${x.form}: ${WORD[x[dir]]}`).join(" · ")}
    </span>
  );
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

function Findings({ f }: { f: FormatVerdict }) {
  if (!f.findings.length) return <span className="muted">no difference on the wire</span>;
  return (
    <ul className="diff-findings">
      {f.findings.map((x, i) => (
        <li key={i} className={`finding-${x.severity}`}>
          {x.form && <span className="badge">{x.form} form</span>}{" "}
          {x.field && <span className="mono">{x.field}: </span>}
          {x.message}
          {x.direction !== "both" && (
            <span className="muted">
              {" "}
              ({x.direction === "oldReadsNew" ? "old decoders, new messages" : "new decoders, old messages"})
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

export function DiffView() {
  const versions = useExport((s) => s.versions);
  const base = useExport((s) => s.baseVersion);
  const target = useExport((s) => s.targetVersion);
  const probe = useExport((s) => s.probe);
  const diff = useExport((s) => s.diff);
  const error = useExport((s) => s.diffError);
  const comparing = useExport((s) => s.comparing);
  useEffect(() => {
    void loadVersions();
  }, []);
  useEffect(() => {
    if (base !== null) void compareVersions();
  }, [base, target, probe]);

  const baseInfo = versions.find((v) => v.version === base);
  if (versions.length < 2) {
    return (
      <div className="export-evolution">
        <div className="empty" data-testid="diff-empty">
          <strong>Only one saved version so far</strong>
          Autosave keeps a version each time you pause editing for a minute. Edit the layout in the designer, then come
          back to see which decoders still read the new messages.
        </div>
      </div>
    );
  }
  return (
    <div className="export-evolution" data-testid="diff-view">
      <div className="diff-controls">
        <span className="diff-pick">
          <label className="export-opt-label" htmlFor="diff-base">
            Compare with
          </label>
          <select
            id="diff-base"
            className="select"
            data-testid="diff-base"
            value={base ?? ""}
            onChange={(e) => useExport.setState({ baseVersion: Number(e.target.value) })}
          >
            {versions.map((v) => (
              <option key={v.version} value={v.version}>
                {versionTitle(v)}
                {v.deployed ? " · deployed" : ""} · {v.fieldCount} fields · {when(v.savedAt)}
              </option>
            ))}
          </select>
        </span>
        <span aria-hidden="true">→</span>
        <span className="diff-pick">
          <label className="export-opt-label" htmlFor="diff-target">
            New version
          </label>
          <select
            id="diff-target"
            className="select"
            data-testid="diff-target"
            value={target}
            onChange={(e) => useExport.setState({ targetVersion: Number(e.target.value) })}
          >
            <option value={0}>the designer's layout now</option>
            {versions.map((v) => (
              <option key={v.version} value={v.version}>
                {versionTitle(v)} · {v.fieldCount} fields
              </option>
            ))}
          </select>
        </span>
        <label className="check">
          <input
            type="checkbox"
            data-testid="diff-probe"
            checked={probe}
            onChange={(e) => useExport.setState({ probe: e.target.checked })}
          />
          check with the codecs on samples
        </label>
      </div>
      {baseInfo && <DeployedVersion versions={versions} base={baseInfo} />}
      {error && (
        <div className="banner attention" role="alert">
          {error}
        </div>
      )}
      {comparing && !diff && (
        <div className="export-empty" role="status">
          <div className="export-spinner" aria-hidden="true" />
          Comparing…
        </div>
      )}
      {diff && (
        <div className="diff-body" data-comparing={comparing}>
          <section className="panel">
            <h3>
              Changes{" "}
              <span className="sub">
                {diff.changes.length ? `${diff.changes.length} edits by field id` : "the two versions are identical"}
              </span>
            </h3>
            {diff.changes.length > 0 && (
              <ul className="diff-changes" data-testid="diff-changes">
                {diff.changes.map((c, i) => (
                  <li key={i}>
                    <span className="badge">{c.kind}</span> <span className="mono">{c.field}</span>{" "}
                    <span className="muted">{c.detail}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="panel">
            <h3>
              Wire compatibility{" "}
              <span className="sub">old decoders reading new messages, and new decoders reading old ones</span>
            </h3>
            <table className="diff-table" data-testid="diff-table">
              <thead>
                <tr>
                  <th>format</th>
                  <th>old reads new</th>
                  <th>new reads old</th>
                  <th>why</th>
                </tr>
              </thead>
              <tbody>
                {diff.formats.map((f) => (
                  <tr key={f.format}>
                    <th scope="row">{formatLabel(f.format)}</th>
                    <td>
                      <Verdict
                        v={f.oldReadsNew}
                        observed={f.observed?.oldReadsNew}
                        testid={`verdict-${f.format}-old-reads-new`}
                      />
                      <FormVerdicts f={f} dir="oldReadsNew" />
                    </td>
                    <td>
                      <Verdict
                        v={f.newReadsOld}
                        observed={f.observed?.newReadsOld}
                        testid={`verdict-${f.format}-new-reads-old`}
                      />
                      <FormVerdicts f={f} dir="newReadsOld" />
                    </td>
                    <td>
                      <Findings f={f} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          {diff.advice.length > 0 && (
            <section className="panel">
              <h3>What to do</h3>
              <ul className="diff-advice" data-testid="diff-advice">
                {diff.advice.map((a) => (
                  <li key={a}>{a}</li>
                ))}
              </ul>
            </section>
          )}
        </div>
      )}
    </div>
  );
}
