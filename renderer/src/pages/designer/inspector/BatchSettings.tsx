// The layout's batch (issue #27): many readings per message. Which top-level fields repeat per reading (the others
// are sent once per message), the sampling interval, readings per message (a fixed N or as many as fit a platform),
// a keyframe every K readings and, per repeated number, the most it may change per second. Every control edits the
// layout (undo, autosave, drafts as any edit); the layout's validation sentences show under the control they concern.
import { type Field, type IssueAt, type Layout } from "#codecs";
import { PLATFORMS } from "#planning";
import "../batch.css";
import { CheckField, Messages, NumberField, SelectField } from "./controls.tsx";
import type { FieldIssue } from "../../../state/issues.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import {
  type Batch,
  DEFAULT_READINGS,
  defaultFitPlatform,
  duration,
  editBatch,
  isNumeric,
  setMaxRate,
  setOptional,
  setPerReading,
  turnBatch,
} from "../edits/batch.ts";

/** Platforms with a per-message limit: what "as many as fit" can fill. */
const FIT_PLATFORMS = PLATFORMS.filter((p) => p.uplinkBytes !== undefined);

const issuesUnder = (issues: readonly IssueAt[], p: string): FieldIssue[] =>
  issues
    .filter((i) => i.path === p || i.path.startsWith(`${p}.`) || i.path.startsWith(`${p}[`))
    .map((i) => ({ at: i.path, message: i.message }));

const exactly = (issues: readonly IssueAt[], p: string): FieldIssue[] =>
  issues.filter((i) => i.path === p).map((i) => ({ at: i.path, message: i.message }));

function FieldLine({ field, batch, issues }: { field: Field; batch: Batch; issues: readonly IssueAt[] }) {
  const index = batch.perReading.findIndex((p) => p.field === field.id);
  const entry = index < 0 ? undefined : batch.perReading[index];
  const base = `batch.perReading[${index}]`;
  const rateIssues = entry ? issuesUnder(issues, `${base}.maxRate`) : [];
  const fieldIssues = entry ? issuesUnder(issues, `${base}.field`).concat(exactly(issues, base)) : [];
  const isTime = batch.time === field.id;
  const unit = field.unit ?? "";
  const between = entry?.maxRate !== undefined ? entry.maxRate * batch.intervalSeconds : undefined;
  return (
    <li className="batch-field" data-testid={`batch-field-${field.id}`} data-per-reading={!!entry}>
      <label className="check">
        <input
          type="checkbox"
          checked={!!entry}
          data-testid={`batch-repeat-${field.id}`}
          aria-invalid={fieldIssues.length > 0}
          onChange={(e) => editBatch(`repeat:${field.id}`, (b, l) => setPerReading(l, b, field.id, e.target.checked))}
        />
        <span className={fieldIssues.length ? "over-text" : undefined}>{field.name}</span>
        {isTime && <span className="badge">time</span>}
      </label>
      {entry && isNumeric(field) && !isTime && (
        <div className="batch-rate">
          <NumberField
            label={`Max rate of ${field.name}`}
            bare
            optional
            value={entry.maxRate}
            placeholder="max rate"
            issues={rateIssues}
            testId={`batch-rate-${field.id}`}
            onCommit={(v) => editBatch(`rate:${field.id}`, (b) => setMaxRate(b, field.id, v))}
          />
          <span className="faint">{unit}/s</span>
        </div>
      )}
      {between !== undefined && Number.isFinite(between) && between > 0 && (
        <span className="batch-note faint">
          at most ±{Number(between.toPrecision(2))}
          {unit ? ` ${unit}` : ""} between two readings
        </span>
      )}
      <Messages issues={fieldIssues} />
    </li>
  );
}

function BatchForm({ layout, batch, issues }: { layout: Layout; batch: Batch; issues: readonly IssueAt[] }) {
  const timestamps = layout.fields.filter(
    (f) => f.type.kind === "timestamp" && batch.perReading.some((p) => p.field === f.id),
  );
  const readings = batch.readings;
  const general = issues.filter(
    (i) =>
      i.path === "batch" ||
      i.path === "batch.perReading" ||
      !/^batch\.(perReading\[|intervalSeconds|readings|time|keyframeEvery)/.test(i.path),
  );
  return (
    <>
      <Messages issues={general.map((i) => ({ at: i.path, message: i.message }))} />
      <div className="batch-block">
        <span className="form-label">Repeats per reading · max rate</span>
        <span className="field-help">
          Ticked fields repeat in every reading; the others are sent once per message (ids, battery, firmware).
        </span>
        <ul className="batch-fields" data-testid="batch-fields">
          {layout.fields.map((f) => (
            <FieldLine key={f.id} field={f} batch={batch} issues={issues} />
          ))}
        </ul>
      </div>
      <p className="field-help" data-testid="batch-rate-help">
        Max rate: the most a value may change per second, in its unit. It sets how many bits each reading&apos;s
        difference from the one before gets in the delta form; a reading that moves faster is refused when encoded. Left
        empty, the difference may span the field&apos;s whole range.
      </p>
      <NumberField
        label="Interval (s)"
        value={batch.intervalSeconds}
        issues={issuesUnder(issues, "batch.intervalSeconds")}
        testId="batch-interval"
        help={`A reading every ${duration(batch.intervalSeconds)}`}
        onCommit={(v) => v !== undefined && editBatch("interval", (b) => ({ ...b, intervalSeconds: v }))}
      />
      <SelectField
        label="Per message"
        value={readings.kind}
        options={[
          { value: "fixed", label: "A fixed number of readings" },
          { value: "fit", label: "As many as fit a platform" },
        ]}
        issues={exactly(issues, "batch.readings").concat(exactly(issues, "batch.readings.kind"))}
        testId="batch-readings-kind"
        onChange={(kind) =>
          editBatch("readings-kind", (b) => ({
            ...b,
            readings:
              kind === "fixed"
                ? { kind, count: DEFAULT_READINGS }
                : { kind, platform: defaultFitPlatform() ?? FIT_PLATFORMS[0]!.id },
          }))
        }
      />
      {readings.kind === "fixed" ? (
        <NumberField
          label="Readings"
          value={readings.count}
          issues={issuesUnder(issues, "batch.readings.count")}
          testId="batch-readings-count"
          help={`The oldest reading waits ${duration(readings.count * batch.intervalSeconds)} for its message`}
          onCommit={(v) =>
            v !== undefined && editBatch("readings-count", (b) => ({ ...b, readings: { kind: "fixed", count: v } }))
          }
        />
      ) : (
        <SelectField
          label="Platform"
          value={readings.platform}
          options={[
            ...(FIT_PLATFORMS.some((p) => p.id === readings.platform)
              ? []
              : [{ value: readings.platform, label: `${readings.platform} (unknown)` }]),
            ...FIT_PLATFORMS.map((p) => ({ value: p.id, label: `${p.name} · ${p.uplinkBytes} B` })),
          ]}
          issues={issuesUnder(issues, "batch.readings.platform")}
          testId="batch-readings-platform"
          help="Each format fills the message with as many readings as fit; the Readings tab shows how many"
          onChange={(platform) =>
            editBatch("readings-platform", (b) => ({ ...b, readings: { kind: "fit", platform } }))
          }
        />
      )}
      <SelectField
        label="Time field"
        value={batch.time ?? ""}
        options={[
          { value: "", label: "None" },
          ...timestamps.map((f) => ({ value: f.id, label: f.name })),
          ...(batch.time && !timestamps.some((f) => f.id === batch.time)
            ? [{ value: batch.time, label: `${batch.time} (not a repeated timestamp)` }]
            : []),
        ]}
        issues={issuesUnder(issues, "batch.time")}
        testId="batch-time"
        help="Sent as one base time and an offset per reading"
        onChange={(t) => editBatch("time", (b) => setOptional(b, "time", t === "" ? undefined : t))}
      />
      <NumberField
        label="Keyframe every"
        optional
        value={batch.keyframeEvery}
        placeholder="only the first"
        issues={issuesUnder(issues, "batch.keyframeEvery")}
        testId="batch-keyframe"
        help="Delta form: every K-th reading is sent whole again, not as a difference"
        onCommit={(v) => editBatch("keyframe", (b) => setOptional(b, "keyframeEvery", v))}
      />
    </>
  );
}

export function BatchSettings({ layout, issues }: { layout: Layout; issues: readonly IssueAt[] }) {
  const batch = layout.batch;
  const batchIssues = issues.filter((i) => i.path === "batch" || i.path.startsWith("batch."));
  return (
    <section className="inspector-section" aria-label="Readings per message" data-testid="batch-settings">
      <h3>Readings per message</h3>
      <CheckField
        label="Batch"
        text="Send many readings in one message"
        checked={!!batch}
        testId="batch-on"
        help="Sizes a message that carries every reading since the last one, e.g. a tracker waking every 15 minutes"
        onChange={(on) => turnBatch(on, defaultFitPlatform())}
      />
      {batch && <BatchForm layout={layout} batch={batch} issues={batchIssues} />}
    </section>
  );
}

/** The section reads the layout and its issues from the store itself (LayoutSettings places it). */
export function BatchSection() {
  const layout = useDesigner((s) => s.history.present);
  const issues = useDesigner((s) => s.issues.layout);
  return <BatchSettings layout={layout} issues={issues} />;
}
