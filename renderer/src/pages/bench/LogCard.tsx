// Every frame on the line, timestamped, as hex and in words; exportable as text or JSON lines.
import { useEffect, useRef, useState } from "react";
import { ActionButton, Card, clock, Empty, ErrorLine } from "./benchParts.tsx";
import { act, useBench } from "./benchStore.ts";
import { downloadText } from "../../download.ts";

export function LogCard() {
  const log = useBench((s) => s.log);
  const [hidePolls, setHidePolls] = useState(false);
  const [follow, setFollow] = useState(true);
  const box = useRef<HTMLDivElement>(null);
  // a poll is EVT_RR and its answer; probes are resynchronisation traffic
  const shown = hidePolls ? log.filter((e) => e.status !== "probe" && !/^EVT_R[RA]\b/.test(e.decoded)) : log;
  useEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [shown.length, follow]);
  const exportAs = (format: "text" | "jsonl") =>
    act("log", async (h) => {
      const { fileName, content } = await h.call("devkit.logExport", { format });
      downloadText(content, fileName, format === "jsonl" ? "application/x-ndjson" : "text/plain");
    });
  return (
    <Card
      title="Frame log"
      testId="log-card"
      wide
      actions={
        <>
          <label className="check small-text">
            <input type="checkbox" checked={hidePolls} onChange={(e) => setHidePolls(e.target.checked)} />
            hide polls and probes
          </label>
          <label className="check small-text">
            <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} />
            follow
          </label>
          <ActionButton action="log" testId="log-export" disabled={!log.length} onClick={() => void exportAs("text")}>
            Export text
          </ActionButton>
          <ActionButton action="log" disabled={!log.length} onClick={() => void exportAs("jsonl")}>
            Export JSONL
          </ActionButton>
          <ActionButton
            action="log"
            disabled={!log.length}
            onClick={() =>
              void act("log", async (h) => (await h.call("devkit.logClear", {}), useBench.setState({ log: [] })))
            }
          >
            Clear
          </ActionButton>
        </>
      }
    >
      {!shown.length ? (
        <Empty testId="log-empty">No frames yet: connect, and every request and answer appears here.</Empty>
      ) : (
        <div className="bench-log" ref={box} data-testid="log" data-count={log.length}>
          <table className="bench-table log">
            <tbody>
              {shown.map((e) => (
                <tr
                  key={e.seq}
                  className={`log-${e.dir} log-${e.status}`}
                  data-testid="log-row"
                  data-dir={e.dir}
                  data-status={e.status}
                >
                  <td className="mono faint">{clock(e.at)}</td>
                  <td className="dir" aria-label={e.dir === "tx" ? "sent" : "received"}>
                    {e.dir === "tx" ? "→" : "←"}
                  </td>
                  <td className="mono hexcol">{e.text}</td>
                  <td className="decoded">
                    {e.status !== "ok" ? <span className={`bench-badge ${e.status}`}>{e.status}</span> : null}{" "}
                    {e.decoded}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ErrorLine action="log" />
    </Card>
  );
}
