// Fit-to-platform advisor: the changes that bring the layout under a target size, ranked by bytes saved per bit of
// declared precision given up, each with its cost in the field's terms; one or all applied as an undoable edit.
import { useEffect, useMemo } from "react";
import { CODECS, EncodeError, FORMAT_IDS, type FormatId, type Layout } from "#codecs";
import type { SizeStats } from "#codecs/analysis";
import { BatchPlanError, messagesPerDay, platformById, PLATFORMS } from "#planning";
import {
  type AdvisorResult,
  type BatteryGain,
  proposeBatch,
  rankByBattery,
  type Suggestion,
  type WireVerdict,
} from "#planning/advisor";
import "./advisor.css";
import {
  adviceKey,
  cancelApply,
  confirmApply,
  loadDeployed,
  requestAdvice,
  requestApply,
  setAdvisorWorker,
  stopAdvisor,
  targetBytesOf,
  useAdvisor,
} from "./advisorStore.ts";
import { rememberProjectFormat } from "../../../session/projectDefaults.ts";
import { useSession } from "../../../session/sessionStore.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { useSettings } from "../../../state/settings.ts";
import { usePaintedOnce } from "../../../ui/paintedOnce.ts";
import { lifeAtFor, lifeText } from "../budget/budgetModel.ts";
import { useBudget, whatIfOf } from "../budget/budgetStore.ts";
import { activeScenario, useDecide } from "../decideStore.ts";
import { NumberInput } from "../inputs.tsx";
import { LimitsPanel } from "./LimitsPanel.tsx";
import { setObjective, useObjective } from "./objective.ts";

setAdvisorWorker(
  () => new Worker(new URL("./advisor.worker.ts", import.meta.url), { type: "module", name: "advisor" }),
);

const LIMITED = PLATFORMS.filter((p) => p.uplinkBytes !== undefined && p.status !== "discontinued").sort(
  (a, b) => a.uplinkBytes! - b.uplinkBytes!,
);
const limitOf = (id: string) => platformById(id)?.uplinkBytes;
const PHASES: Record<string, string> = {
  sampling: "Drawing samples",
  measuring: "Measuring each change",
  planning: "Chaining changes",
  checking: "Checking every sample",
  describing: "Checking each change against deployed receivers",
};

const b1 = (x: number) => `${x.toFixed(x >= 10 ? 1 : 2)} B`;

/** One row per field, and one more for its key: the test id says which. */
const rowId = (s: Suggestion) => `${s.fieldId}${s.transform.kind === "short-key" ? "-key" : ""}`;

const WIRE_WORDS: Record<WireVerdict["compat"], string> = {
  compatible: "compatible",
  degraded: "degraded",
  breaking: "breaking",
};
const CURRENT = "the current layout";
/** What a verdict means for the receivers built for `built` (the current layout, or the deployed version). */
function wireTitle(compat: WireVerdict["compat"], built = CURRENT): string {
  if (compat === "compatible") return `Receivers built for ${built} still read every message`;
  if (compat === "degraded") return `Some messages are refused by receivers built for ${built}`;
  return `Receivers built for ${built} misread or refuse the new messages: update them together`;
}

/** "v3 “Field trial” (deployed)" */
const deployedName = (d: { version: number; label: string | null }) =>
  `v${d.version}${d.label ? ` “${d.label}”` : ""} (deployed)`;

const WORSE: Record<WireVerdict["compat"], number> = { compatible: 0, degraded: 1, breaking: 2 };

/**
 * Applying the plan asks first when it breaks or degrades the wire for the current layout's receivers or for the
 * deployed version's (those in the field, when a version is marked deployed): the worse of the two is shown.
 */
function applyPlan(plan: AdvisorResult["plan"]): void {
  const d = plan.deployedWire;
  if (d && WORSE[d.compat] > WORSE[plan.wire.compat])
    requestApply(plan.transforms, d, "The plan", `version ${deployedName(d)}`);
  else requestApply(plan.transforms, plan.wire, "The plan");
}

/** What a change does to receivers already deployed (the Schema evolution check), with its reasons on hover. */
function Wire({ wire, testId, built }: { wire: WireVerdict; testId: string; built?: string }) {
  return (
    <span
      className={`advisor-wire wire-${wire.compat}`}
      data-testid={testId}
      data-compat={wire.compat}
      title={[wireTitle(wire.compat, built), ...wire.reasons].join("\n")}
    >
      {WIRE_WORDS[wire.compat]}
    </span>
  );
}

/**
 * The format itself as a lever: the formats whose largest message is smaller than this one's as the layout is now,
 * those that already fit the target first — choosing one gives up no precision at all.
 */
function FormatLever({ result: r }: { result: AdvisorResult }) {
  const smaller = r.otherFormats.filter((o) => o.sizes && o.sizes.max < r.base.max);
  if (!smaller.length) return null;
  const fitting = smaller.filter((o) => o.sizes!.max <= r.targetBytes);
  const choose = (format: FormatId) => {
    useAdvisor.setState({ format });
    rememberProjectFormat(useDesigner.getState().projectId, format);
  };
  return (
    <div className="note advisor-formats" data-testid="advisor-formats">
      {fitting.length
        ? `Without any change, the layout already fits ${r.targetBytes} B in ${fitting.length === 1 ? "another format" : `${fitting.length} other formats`}: `
        : `Other formats are smaller as the layout is now (none fits ${r.targetBytes} B without changes): `}
      {smaller.map((o) => (
        <button
          key={o.format}
          type="button"
          className={`btn small${o.sizes!.max <= r.targetBytes ? " fits" : ""}`}
          data-testid={`advisor-format-${o.format}`}
          data-fits={o.sizes!.max <= r.targetBytes}
          title={`${CODECS[o.format].info.label}: ${sizesText(o.sizes!)} before any change; plan with it`}
          onClick={() => choose(o.format)}
        >
          {CODECS[o.format].info.short} {o.sizes!.max} B{o.sizes!.max <= r.targetBytes ? " ✓" : ""}
        </button>
      ))}
    </div>
  );
}

/**
 * A layout with a batch (issue 27): how many readings to put in one message on the chosen platform, what
 * that saves in messages and bytes, and how long the oldest reading then waits (proposeBatch, delta form).
 */
function BatchLever({ layout, format, platform }: { layout: Layout; format: FormatId; platform: string }) {
  const proposal = useMemo(() => {
    try {
      return proposeBatch(layout, format, "delta", platform);
    } catch (e) {
      if (e instanceof BatchPlanError || e instanceof EncodeError) return e.message;
      throw e;
    }
  }, [layout, format, platform]);
  return (
    <p
      className="note"
      data-testid="advisor-batch"
      data-readings={typeof proposal === "string" ? undefined : proposal.readingsPerMessage}
    >
      <strong>Readings per message ({CODECS[format].info.label}):</strong>{" "}
      {typeof proposal === "string" ? proposal : `${proposal.text}.`}
    </p>
  );
}

/**
 * The plan against the version marked deployed: the receivers in the field were built for it, and the current layout
 * may already differ from it (then even a plan of compatible changes leaves them behind).
 */
function DeployedWireNote({ plan }: { plan: AdvisorResult["plan"] }) {
  const d = plan.deployedWire!;
  const built = `version ${deployedName(d)}`;
  const first = d.reasons[0] ?? wireTitle(d.compat, built);
  const more = d.reasons.length > 1 ? ` (and ${d.reasons.length - 1} more)` : "";
  return (
    <p className="note" data-testid="advisor-plan-deployed" data-compat={d.compat}>
      Receivers built for {deployedName(d)}: <Wire wire={d} testId="advisor-plan-deployed-verdict" built={built} />{" "}
      {d.compat === "compatible"
        ? `they read ${plan.transforms.length ? "the planned" : "the current"} messages unchanged.`
        : `${first}${more}.${plan.transforms.length ? " Applying asks first." : " That is so before any change of the plan."}`}
    </p>
  );
}

/** A degraded or breaking change waits here for a yes, with the evolution check's reasons. */
function ConfirmApply() {
  const c = useAdvisor((s) => s.confirm);
  if (!c) return null;
  return (
    <div
      className="panel advisor-confirm"
      role="alertdialog"
      aria-label="Confirm a wire-breaking change"
      data-testid="advisor-confirm"
    >
      <p>
        <strong>
          {c.what} {c.wire.compat === "breaking" ? "breaks" : "degrades"} the wire format.
        </strong>{" "}
        {wireTitle(c.wire.compat, c.receivers)}.
      </p>
      {c.wire.reasons.length ? (
        <ul className="advisor-reasons">
          {c.wire.reasons.slice(0, 8).map((r) => (
            <li key={r}>{r}</li>
          ))}
          {c.wire.reasons.length > 8 ? <li>… and {c.wire.reasons.length - 8} more</li> : null}
        </ul>
      ) : null}
      <div className="row">
        <button
          type="button"
          className="btn primary"
          data-testid="advisor-confirm-apply"
          onClick={() => confirmApply()}
        >
          Apply anyway
        </button>
        <button type="button" className="btn" data-testid="advisor-confirm-cancel" onClick={() => cancelApply()}>
          Cancel
        </button>
      </div>
    </div>
  );
}
const sizesText = (s: SizeStats) =>
  `${s.min === s.max ? `${s.max} B` : `${s.min}–${s.max} B`} (mean ${s.mean.toFixed(1)})`;

function Controls({ target, outdated }: { target: number | undefined; outdated: boolean }) {
  const a = useAdvisor();
  const samples = useSettings((s) => s.samples);
  return (
    <div className="analysis-controls advisor-controls">
      <label>
        Target
        <select
          className="select"
          value={a.target}
          data-testid="advisor-target"
          onChange={(e) => useAdvisor.setState({ target: e.target.value })}
        >
          {LIMITED.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} · {p.uplinkBytes} B
            </option>
          ))}
          <option value="custom">My own byte budget…</option>
        </select>
      </label>
      {a.target === "custom" ? (
        <label>
          <NumberInput
            label="Target bytes"
            value={a.customBytes}
            integer
            min={1}
            max={65_535}
            width={70}
            testId="advisor-custom"
            onCommit={(v) => v !== undefined && useAdvisor.setState({ customBytes: v })}
          />
          B
        </label>
      ) : null}
      <label>
        Format
        <select
          className="select"
          value={a.format}
          data-testid="advisor-format"
          onChange={(e) => {
            const format = e.target.value as FormatId;
            useAdvisor.setState({ format });
            // the format planned for is the project's choice on the pages that send it (Load test, DevKit, Channel)
            rememberProjectFormat(useDesigner.getState().projectId, format);
          }}
        >
          {FORMAT_IDS.map((f) => (
            <option key={f} value={f}>
              {CODECS[f].info.label}
            </option>
          ))}
        </select>
      </label>
      <Objective />
      <label title="A latitude or longitude is never rounded coarser than this">
        Positions to
        <NumberInput
          label="Position precision in metres"
          value={a.positionMetres}
          min={0.01}
          max={1_000_000}
          width={64}
          testId="advisor-position-m"
          onCommit={(v) => v !== undefined && useAdvisor.setState({ positionMetres: v })}
        />
        m
      </label>
      <span className="faint">{samples.toLocaleString("en-US")} samples (designer setting)</span>
      <span
        className="compute-state"
        data-testid="advisor-state"
        data-running={a.running || outdated}
        data-ms={a.result && !a.running && !outdated ? Math.round(a.ms) : undefined}
      >
        {!a.running && outdated ? (
          <span className="progress-line">
            Starting…
            <progress aria-label="Advisor progress" />
          </span>
        ) : a.running && a.progress ? (
          <span className="progress-line">
            {PHASES[a.progress.phase] ?? a.progress.phase}
            <progress max={Math.max(1, a.progress.total)} value={a.progress.done} aria-label="Advisor progress" />
          </span>
        ) : a.result && target !== undefined ? (
          `${a.result.sampleCount.toLocaleString("en-US")} samples in ${Math.round(a.ms)} ms`
        ) : (
          ""
        )}
      </span>
    </div>
  );
}

function Objective() {
  const objective = useObjective((o) => o.objective);
  return (
    <div className="segmented" role="group" aria-label="Rank suggestions by">
      {(["bytes", "battery"] as const).map((o) => (
        <button
          key={o}
          type="button"
          aria-pressed={objective === o}
          data-testid={`advisor-objective-${o}`}
          onClick={() => setObjective(o)}
        >
          {o === "bytes" ? "Bytes" : "Battery life"}
        </button>
      ))}
    </div>
  );
}

/** The gain of a suggestion in the words of the Budget view: "+3.1 months", "none", "lasts 4.2 years", "cannot send". */
function gainText(g: BatteryGain): string {
  if (g.lifeYears === null) return "cannot send";
  // the layout as it is cannot be sent: what the battery lasts with the change is the news
  if (g.gainYears === null) return `lasts ${lifeText(g.lifeYears)}`;
  if (Math.abs(g.gainYears) < 1 / 365.25 / 24) return "none";
  return `${g.gainYears > 0 ? "+" : "−"}${lifeText(Math.abs(g.gainYears))}`;
}

function UndoRedo() {
  const canUndo = useDesigner((s) => s.history.past.length > 0);
  const canRedo = useDesigner((s) => s.history.future.length > 0);
  return (
    <>
      <button
        type="button"
        className="btn small"
        data-testid="advisor-undo"
        disabled={!canUndo}
        onClick={() => useDesigner.getState().undo()}
        title="Undo the last layout edit (Ctrl+Z)"
      >
        Undo
      </button>
      <button
        type="button"
        className="btn small"
        data-testid="advisor-redo"
        disabled={!canRedo}
        onClick={() => useDesigner.getState().redo()}
        title="Redo (Ctrl+Y)"
      >
        Redo
      </button>
    </>
  );
}

export function AdvisorPage() {
  const a = useAdvisor();
  const validKey = useDesigner((s) => s.validKey);
  const valid = useDesigner((s) => s.valid);
  const samples = useSettings((s) => s.samples);
  const seed = useSettings((s) => s.seed);
  const target = targetBytesOf(a, limitOf);
  // the controls and the working state paint first; the advice and the per-field limits follow at low priority
  const ready = usePaintedOnce();

  useEffect(() => {
    requestAdvice(target);
  }, [validKey, target, a.format, samples, seed, a.locked, a.maxStep, a.positionMetres, a.deployed]);
  useEffect(() => stopAdvisor, []);
  // the version marked deployed (Export → Schema evolution), which the plan is checked against as well
  const projectId = useDesigner((s) => s.projectId);
  const api = useSession((s) => s.api);
  useEffect(() => {
    if (api && projectId) void loadDeployed(api, projectId);
  }, [api, projectId]);
  // the designer's own shortcuts live on its page; here the same keys undo the advisor's edits
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const k = e.key.toLowerCase();
      if (k === "z" && !e.shiftKey) {
        e.preventDefault();
        useDesigner.getState().undo();
      } else if ((k === "z" && e.shiftKey) || k === "y") {
        e.preventDefault();
        useDesigner.getState().redo();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const r = a.result;
  // battery life as the objective: the target platform's radio, with the Budget view's device and cadence
  const objective = useObjective((o) => o.objective);
  const budget = useBudget();
  const scenario = useDecide(activeScenario);
  const perDay = scenario ? messagesPerDay(scenario.cadence) : 4;
  const ranked = useMemo(() => {
    if (objective !== "battery" || !r || a.target === "custom") return null;
    const lifeAt = lifeAtFor(a.target, whatIfOf(budget, perDay, valid), budget.device, budget.radio);
    return lifeAt ? rankByBattery(r.suggestions, r.base.mean, lifeAt) : null;
  }, [objective, r, a.target, budget, perDay, valid]);
  // the figures' own format and target: while newer advice is computed they stay up, marked, never relabelled
  const formatLabel = CODECS[r?.format ?? a.format].info.label;
  const shownTarget = r?.targetBytes ?? target;
  const targetName =
    a.target === "custom" || r?.targetBytes !== target
      ? `${shownTarget} B`
      : `${platformById(a.target)?.name ?? a.target} (${shownTarget} B)`;
  const askable = !!valid && valid.fields.length > 0 && target !== undefined;
  const outdated = askable && r !== null && a.resultKey !== adviceKey(a, validKey, target, samples, seed);
  const stale = r !== null && (a.running || outdated);

  let body;
  if (!ready && valid && valid.fields.length > 0)
    body = (
      <div className="empty" data-testid="advisor-opening">
        <strong>{r ? "Showing the advice…" : "Measuring every change…"}</strong>
      </div>
    );
  else if (!valid || valid.fields.length === 0)
    body = (
      <div className="empty" data-testid="advisor-empty">
        <strong>No layout to fit</strong>
        Add fields in the designer (or fix its problems) and the advisor proposes what to change.
      </div>
    );
  else if (a.error)
    body = (
      <div className="error-box" data-testid="advisor-error">
        {a.error}
      </div>
    );
  else if (!r)
    body = (
      <div className="empty" data-testid="advisor-running">
        <strong>Measuring every change…</strong>
        Each candidate change is encoded and decoded over the samples.
      </div>
    );
  else if (stale)
    // the figures on hand were worked out for other inputs: none of them is shown as if it were the new answer
    body = (
      <div className="empty" data-testid="advisor-recalculating" data-format={a.format}>
        <strong>
          Recalculating for {CODECS[a.format].info.label}
          {target !== undefined ? ` at ${target} B` : ""}…
        </strong>
        The figures worked out for {CODECS[r.format].info.label} at {r.targetBytes} B
        {r.format === a.format && r.targetBytes === target ? " for the layout before the last change" : ""} are hidden
        until then.
      </div>
    );
  else
    body = (
      <div
        className={`advisor-body${stale ? " stale" : ""}`}
        data-testid="advisor-result"
        data-format={r.format}
        data-stale={stale}
        data-fits={r.plan.fits}
        data-base-max={r.base.max}
        data-plan-max={r.plan.sizes.max}
      >
        {a.notice ? <p className="note attention">{a.notice}</p> : null}
        <ConfirmApply />
        <div className="panel advisor-summary">
          <div className="advisor-numbers">
            <div>
              <div className="muted">Now ({formatLabel})</div>
              <div className={`big num${r.base.max > r.targetBytes ? " over-text" : ""}`} data-testid="advisor-now">
                {r.base.max} B
              </div>
              <div className="faint">
                max of {r.sampleCount.toLocaleString("en-US")} · mean {r.base.mean.toFixed(1)}
              </div>
            </div>
            <div className="arrow" aria-hidden="true">
              →
            </div>
            <div>
              <div className="muted">With the plan</div>
              <div className={`big num${r.plan.fits ? " fits-text" : " over-text"}`} data-testid="advisor-after">
                {r.plan.sizes.max} B
              </div>
              <div className="faint">
                {r.plan.transforms.length} change{r.plan.transforms.length === 1 ? "" : "s"} · mean{" "}
                {r.plan.sizes.mean.toFixed(1)}
              </div>
            </div>
            <div className="advisor-verdict">
              {r.base.max <= r.targetBytes ? (
                <span className="verdict fits" data-testid="advisor-fits-already">
                  ✓ every sample already fits {targetName}
                </span>
              ) : r.plan.fits ? (
                <span className="verdict fits">✓ the plan fits {targetName}</span>
              ) : (
                <span className="verdict over" data-testid="advisor-unreachable">
                  ✗ the allowed changes cannot reach {targetName}
                  {r.plan.closest ? `: every one of them together still makes ${r.plan.closest.max} B` : ""}
                </span>
              )}
            </div>
            <div className="spacer" />
            {r.plan.transforms.length ? (
              <button
                type="button"
                className={`btn${r.plan.partial ? "" : " primary"}`}
                data-testid="advisor-apply-all"
                data-partial={r.plan.partial}
                disabled={stale}
                title={
                  r.plan.partial
                    ? `Partial: these changes lose no precision but leave messages at ${r.plan.sizes.max} B, over ${targetName}`
                    : undefined
                }
                onClick={() => applyPlan(r.plan)}
              >
                {r.plan.partial
                  ? `Apply ${r.plan.transforms.length} lossless change${r.plan.transforms.length === 1 ? "" : "s"} (partial: ${r.plan.sizes.max} B, over the target)`
                  : `Apply all ${r.plan.transforms.length} change${r.plan.transforms.length === 1 ? "" : "s"}`}
              </button>
            ) : null}
            <UndoRedo />
          </div>
          {r.plan.transforms.length ? (
            <p className="note" data-testid="advisor-plan-wire">
              Receivers built for the current layout: <Wire wire={r.plan.wire} testId="advisor-plan-wire-verdict" />{" "}
              {r.plan.wire.compat === "compatible"
                ? "they read the planned messages unchanged."
                : `${r.plan.wire.reasons[0] ?? wireTitle(r.plan.wire.compat)}${r.plan.wire.reasons.length > 1 ? ` (and ${r.plan.wire.reasons.length - 1} more)` : ""}. Applying asks first.`}
            </p>
          ) : null}
          {r.plan.deployedWire ? <DeployedWireNote plan={r.plan} /> : null}
          <FormatLever result={r} />
          {r.plan.partial ? (
            <p className="note attention" data-testid="advisor-partial">
              Out of reach, so the plan gives up no precision: it only holds the changes that lose nothing. Try another
              format, lift a precision limit, or apply single suggestions below knowing the target is still missed.
            </p>
          ) : null}
          {r.plan.budgetPending ? (
            <p className="note" data-testid="advisor-budget-pending">
              <strong>What {targetName} costs</strong> if fields may be left out: working it out (the advice above is
              complete; this comes in a few seconds).
            </p>
          ) : null}
          {r.plan.budget ? (
            <div className="advisor-budget" data-testid="advisor-budget">
              <p className="note">
                <strong>What {targetName} costs:</strong> leaving out {r.plan.budget.left.join(", ")}
                {r.plan.budget.rounded.length ? ` and rounding ${r.plan.budget.rounded.join(", ")}` : ""} makes every
                sample fit ({sizesText(r.plan.budget.sizes)}), giving up {Math.round(r.plan.budget.bitsLost)} declared
                bits per message. <Wire wire={r.plan.budget.wire} testId="advisor-budget-wire" />
              </p>
              <button
                type="button"
                className="btn small"
                data-testid="advisor-apply-budget"
                onClick={() =>
                  requestApply(r.plan.budget!.transforms, r.plan.budget!.wire, "Fitting the budget by leaving data out")
                }
              >
                Apply these {r.plan.budget.transforms.length} changes (data left out)
              </button>
            </div>
          ) : null}
          <p className="note">Applying is one step in the designer's history: Undo (Ctrl+Z) takes it back.</p>
        </div>

        {r.plan.losses.length > 0 ? (
          <div className="panel">
            <h3>
              Precision given up by the plan{" "}
              <span className="sub">
                worst error guaranteed by the new step, and the worst measured by decoding every sample
              </span>
            </h3>
            <table className="data" data-testid="advisor-losses">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col" className="wrap">
                    Change
                  </th>
                  <th scope="col">Worst error</th>
                  <th scope="col">Measured</th>
                </tr>
              </thead>
              <tbody>
                {r.plan.losses.map((l, i) => {
                  const s = r.suggestions.find(
                    (x) => x.transform === r.plan.transforms[i] || x.id === r.plan.steps[i]?.suggestionId,
                  );
                  const key = r.plan.transforms[i]?.kind === "short-key" ? `${l.field}-key` : l.field;
                  return (
                    <tr key={key} data-testid={`loss-${key}`}>
                      <th scope="row">{l.field}</th>
                      <td className="wrap">{s?.title ?? ""}</td>
                      <td>{l.text}</td>
                      <td>{l.measuredText}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        ) : null}

        {r.status ? (
          <div className="panel">
            <h3>
              Status message{" "}
              <span className="sub">
                sent rarely (once a day, or when a value changes): {sizesText(r.status.sizes)} in {formatLabel}
              </span>
            </h3>
            <p className="note" data-testid="advisor-status">
              {r.status.layout.fields
                .map((f) => `${f.key} = ${JSON.stringify((f.sample as { value?: unknown } | undefined)?.value ?? "")}`)
                .join(" · ")}
            </p>
          </div>
        ) : null}

        <div className="panel">
          <h3>
            Suggestions{" "}
            <span className="sub" data-testid="advisor-ranking">
              {ranked
                ? `ranked by battery life gained on ${targetName} (the Budget view's device and cadence), then as for bytes`
                : "ranked: lossless first, then bytes saved per bit of declared precision given up"}
            </span>
          </h3>
          {objective === "battery" && !ranked ? (
            <p className="note attention" data-testid="advisor-no-radio">
              Battery life needs the target's radio: choose a platform with a radio model as the target (not a byte
              budget of your own).
            </p>
          ) : null}
          {r.suggestions.length === 0 ? (
            <div className="empty">
              <strong>Nothing to suggest</strong>
              No change of a field saves bytes in {formatLabel}.
            </div>
          ) : (
            <table className="data advisor-table" data-testid="advisor-suggestions">
              <thead>
                <tr>
                  <th scope="col">Change</th>
                  <th scope="col" title="Mean bytes saved per message with only this change">
                    saves
                  </th>
                  <th
                    scope="col"
                    title="Precision given up per message: log2(new step / declared step) bits per value, whatever the samples hold"
                  >
                    info lost
                  </th>
                  <th scope="col" title="Bytes saved per bit of precision given up">
                    B/bit
                  </th>
                  <th scope="col">worst error</th>
                  <th scope="col">new size</th>
                  {ranked ? (
                    <th scope="col" title="Battery life gained with only this change">
                      battery
                    </th>
                  ) : null}
                  <th scope="col" title="What the change does to receivers built for the current layout">
                    receivers
                  </th>
                  <th scope="col" />
                </tr>
              </thead>
              <tbody>
                {(ranked ?? r.suggestions).map((s: Suggestion & Partial<BatteryGain>) => (
                  <tr key={s.id} data-testid={`suggestion-${rowId(s)}`} data-in-plan={s.inPlan}>
                    <td className="wrap">
                      <div className="suggestion-title">
                        {s.inPlan ? <span className="badge">plan</span> : null} {s.title}
                      </div>
                      <div className="faint">{s.detail}</div>
                      {s.caveat ? <div className="attention-text">{s.caveat}</div> : null}
                    </td>
                    <td>{b1(s.bytesSaved)}</td>
                    <td data-testid={`info-lost-${rowId(s)}`}>
                      {s.infoLostBits <= 1e-6 ? "none" : `${s.infoLostBits.toFixed(2)} bit`}
                    </td>
                    <td>{s.bytesPerBit === null ? "∞" : s.bytesPerBit.toFixed(2)}</td>
                    <td data-testid={`worst-${rowId(s)}`}>{s.loss?.text ?? "exact"}</td>
                    <td className={s.sizes.max > r.targetBytes ? "over-text" : undefined}>{sizesText(s.sizes)}</td>
                    {s.gainYears !== undefined && s.lifeYears !== undefined ? (
                      <td data-testid={`battery-${rowId(s)}`} data-value={s.gainYears ?? undefined}>
                        {gainText({ gainYears: s.gainYears, lifeYears: s.lifeYears })}
                      </td>
                    ) : null}
                    <td>
                      <Wire wire={s.wire} testId={`wire-${rowId(s)}`} />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="btn small"
                        data-testid={`apply-${rowId(s)}`}
                        disabled={stale}
                        onClick={() => requestApply([s.transform], s.wire, s.title)}
                      >
                        Apply
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>

        {r.removals.length > 0 ? (
          <div className="panel">
            <h3>
              If a field can go{" "}
              <span className="sub">
                information lost outright, so never part of the plan: what leaving each out would save in {formatLabel}
              </span>
            </h3>
            <table className="data advisor-table" data-testid="advisor-removals">
              <thead>
                <tr>
                  <th scope="col">Change</th>
                  <th scope="col" title="Mean bytes saved per message">
                    saves
                  </th>
                  <th scope="col" title="Declared bits no longer sent per message (the field's bit-packed width)">
                    info lost
                  </th>
                  <th scope="col">new size</th>
                  <th scope="col">receivers</th>
                  <th scope="col" />
                </tr>
              </thead>
              <tbody>
                {r.removals.map((s) => (
                  <tr key={s.id} data-testid={`removal-${s.fieldId}`}>
                    <td className="wrap">
                      <div className="suggestion-title">{s.title}</div>
                      <div className="faint">{s.detail}</div>
                    </td>
                    <td>{b1(s.bytesSaved)}</td>
                    <td>{`${Math.round(s.infoLostBits)} bit`}</td>
                    <td className={s.sizes.max > r.targetBytes ? "over-text" : undefined}>{sizesText(s.sizes)}</td>
                    <td>
                      <Wire wire={s.wire} testId={`removal-wire-${s.fieldId}`} />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="btn small"
                        data-testid={`remove-${s.fieldId}`}
                        onClick={() => requestApply([s.transform], s.wire, s.title)}
                      >
                        Apply
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </div>
    );

  return (
    <div className="decide-page-body" data-testid="advisor-page">
      <Controls target={target} outdated={outdated} />
      <div className="decide-scroll">
        {ready && valid && valid.fields.length > 0 ? <LimitsPanel layout={valid} /> : null}
        {ready && valid?.batch && a.target !== "custom" ? (
          <BatchLever layout={valid} format={a.format} platform={a.target} />
        ) : null}
        {body}
      </div>
    </div>
  );
}
