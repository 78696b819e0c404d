// "Send current design": one sample of the open layout in a chosen format, sized against the Astronode's
// limit before anything is sent; plus custom hex, dequeue and free.
import { useMemo, useState } from "react";
import { codecFor, CODECS, FORMAT_IDS, type FormatId, generateSamples } from "#codecs";
import { platformById } from "#planning";
import { ActionButton, Card, Empty, ErrorLine, FlashLine } from "./benchParts.tsx";
import { act, flash, refreshQueue, useBench } from "./benchStore.ts";
import { go } from "../../nav/routeStore.ts";
import { flushSave } from "../../session/autosave.ts";
import { projectFormat, rememberProjectFormat } from "../../session/projectDefaults.ts";
import { useSession } from "../../session/sessionStore.ts";
import { useDesigner } from "../../state/layoutStore.ts";
import { useSettings } from "../../state/settings.ts";

const LIMIT = platformById("astrocast")?.uplinkBytes ?? 160;

function Verdict({ bytes, testId }: { bytes: number; testId: string }) {
  const over = bytes - LIMIT;
  return (
    <span
      className={`bench-verdict ${over > 0 ? "over" : "fits"}`}
      data-testid={testId}
      data-bytes={bytes}
      data-over={Math.max(0, over)}
    >
      {bytes} B · {over > 0 ? `${over} over the Astronode's ${LIMIT}` : `fits (${-over} spare)`}
    </span>
  );
}

export function SendCard() {
  // a card per project: another project opened meanwhile starts on that project's format
  const projectId = useDesigner((s) => s.projectId);
  return <ProjectSendCard key={projectId ?? ""} projectId={projectId} />;
}

function ProjectSendCard({ projectId }: { projectId: string | null }) {
  const projectName = useDesigner((s) => s.projectName);
  const layout = useDesigner((s) => s.valid);
  const issueCount = useDesigner((s) => s.issueCount);
  const seed = useSettings((s) => s.seed);
  const ready = useBench((s) => s.status?.state === "ready");
  // the project's chosen format (the verdict below says at once when it does not fit the Astronode)
  const [format, setFormat] = useState<FormatId>(() => projectFormat(projectId));
  const [sample, setSample] = useState("0");
  const [hex, setHex] = useState("");

  const sampleN = /^\d+$/.test(sample.trim()) ? Number(sample) : null;
  const preview = useMemo(() => {
    if (!layout || sampleN === null || sampleN > 99_999) return null;
    try {
      return {
        bytes: codecFor(layout, format).encode(generateSamples(layout, sampleN + 1, seed)[sampleN]!).length,
        error: null,
      };
    } catch (e) {
      return { bytes: 0, error: (e as Error).message };
    }
  }, [layout, format, sampleN, seed]);
  const hexClean = hex.replace(/^\s*0x/i, "").replace(/[\s:]/g, "");
  const hexProblem =
    hexClean === ""
      ? null
      : !/^[0-9a-fA-F]*$/.test(hexClean)
        ? "only 0-9 and A-F"
        : hexClean.length % 2
          ? "an odd number of hex digits"
          : null;
  const hexBytes = hexProblem || !hexClean ? null : hexClean.length / 2;

  const sendDesign = () =>
    act("send", async (h) => {
      await flushSave();
      if (useSession.getState().save.status !== "saved")
        throw new Error("the layout has unsaved problems: the payload is made from the saved layout");
      const t = await h.call("devkit.sendDesign", { projectId: projectId!, format, sample: sampleN!, seed });
      flash(
        "send",
        `Queued as payload id ${t.queueId}: ${t.bytes} B of ${format}, sample ${sampleN}, layout version ${t.layoutVersion}.`,
      );
      await refreshQueue();
    });

  return (
    <Card title="Send" testId="send-card">
      {!projectId ? (
        <Empty testId="send-empty">
          Open a project in the designer to send its payload.{" "}
          <button type="button" className="btn small" onClick={() => go({ page: "designer" })}>
            Go to the designer
          </button>
        </Empty>
      ) : (
        <>
          <p className="bench-sub">
            Current design: <strong>{projectName}</strong>
            {issueCount ? <span className="bench-hint"> · {issueCount} problem(s) to fix first</span> : null}
          </p>
          <div className="bench-row">
            <label className="bench-inline">
              <span className="faint">Format</span>
              <select
                className="select"
                data-testid="send-format"
                value={format}
                onChange={(e) => {
                  setFormat(e.target.value as FormatId);
                  rememberProjectFormat(projectId, e.target.value as FormatId);
                }}
              >
                {FORMAT_IDS.map((f) => (
                  <option key={f} value={f}>
                    {CODECS[f].info.label}
                  </option>
                ))}
              </select>
            </label>
            <label className="bench-inline">
              <span className="faint">Sample</span>
              <input
                className={`input narrow${sampleN === null ? " invalid" : ""}`}
                data-testid="send-sample"
                value={sample}
                onChange={(e) => setSample(e.target.value)}
              />
            </label>
            <span className="faint">seed {seed}</span>
          </div>
          <div className="bench-row">
            {preview?.error ? (
              <span className="field-msg">{preview.error}</span>
            ) : preview ? (
              <Verdict bytes={preview.bytes} testId="send-verdict" />
            ) : (
              <span className="faint">no valid layout</span>
            )}
            <span className="spacer" />
            <ActionButton
              action="send"
              primary
              testId="send-design"
              disabled={!ready || !preview || !!preview.error || preview.bytes > LIMIT || issueCount > 0}
              onClick={() => void sendDesign()}
            >
              Send current design
            </ActionButton>
          </div>
          {!ready ? <p className="bench-sub">Connect a DevKit or the simulator to send.</p> : null}
          <FlashLine name="send" />
          <ErrorLine action="send" />
        </>
      )}
      <p className="bench-sub">Custom payload (hex)</p>
      <div className="bench-row">
        <input
          className={`input mono${hexProblem ? " invalid" : ""}`}
          data-testid="hex-input"
          placeholder="48 65 6C 6C 6F"
          value={hex}
          onChange={(e) => setHex(e.target.value)}
        />
        <ActionButton
          action="hex"
          testId="hex-send"
          disabled={!ready || hexBytes === null || hexBytes > LIMIT}
          onClick={() =>
            void act("hex", async (h) => {
              const t = await h.call("devkit.enqueueHex", { hex });
              flash("hex", `Queued as payload id ${t.queueId} (${t.bytes} B).`);
              await refreshQueue();
            })
          }
        >
          Enqueue
        </ActionButton>
      </div>
      {hexProblem ? (
        <p className="field-msg">{hexProblem}</p>
      ) : hexBytes !== null ? (
        <Verdict bytes={hexBytes} testId="hex-verdict" />
      ) : null}
      <FlashLine name="hex" />
      <ErrorLine action="hex" />
      <div className="bench-row">
        <ActionButton
          action="dequeue"
          disabled={!ready}
          testId="dequeue"
          onClick={() =>
            void act("dequeue", async (h) => {
              const { id } = await h.call("devkit.dequeue", {});
              flash("dequeue", `Removed payload ${id}.`);
              await refreshQueue();
            })
          }
        >
          Dequeue oldest
        </ActionButton>
        <ActionButton
          action="dequeue"
          disabled={!ready}
          testId="free"
          onClick={() =>
            void act("dequeue", async (h) => {
              await h.call("devkit.free", {});
              flash("dequeue", "Queue emptied.");
              await refreshQueue();
            })
          }
        >
          Free all
        </ActionButton>
      </div>
      <FlashLine name="dequeue" />
      <ErrorLine action="dequeue" />
    </Card>
  );
}
