// "Size on my log…" in the Readings per message view (issue #27): the user's own readings (CSV with a header of
// field keys, or JSON Lines) instead of generated series. The file's text goes to the sizes workers, which import it
// (importLog) and size every format on it; this strip says which readings the figures are of, lists what is wrong
// with a log that cannot be read (nothing is sized on part of a log), and leads back to generated series.
import { useRef, useState } from "react";
import { describeLogProblem } from "#codecs";
import type { BatchView } from "../../../state/analysis.ts";
import { useReadingsLog } from "../../../state/readingsLog.ts";
import type { LogSummary } from "../../../worker/protocol.ts";

/** Problems shown at once; the rest are counted. */
export const PROBLEMS_SHOWN = 10;
/** A log larger than this is refused before it is read (a satellite device's log is far smaller). */
const MAX_LOG_BYTES = 20 * 1024 * 1024;

/** The import's answer for the log on screen, once the workers have sized it (null while they have not). */
export function logSummaryOf(view: BatchView | null, logId: number | undefined): LogSummary | null {
  if (!view || logId === undefined || !view.ask.endsWith(`|log${logId}`)) return null;
  for (const item of view.items) for (const f of item.forms) if (f.log) return f.log;
  return null;
}

export function ReadingsLog({ view }: { view: BatchView | null }) {
  const log = useReadingsLog((s) => s.log);
  const choose = useReadingsLog((s) => s.choose);
  const clear = useReadingsLog((s) => s.clear);
  const input = useRef<HTMLInputElement>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const summary = logSummaryOf(view, log?.id);

  const onFile = async (file: File | undefined) => {
    if (input.current) input.current.value = "";
    if (!file) return;
    if (file.size > MAX_LOG_BYTES) {
      setFileError(`${file.name} is ${Math.round(file.size / 1024 / 1024)} MB: a log of up to 20 MB can be sized.`);
      return;
    }
    setFileError(null);
    choose(file.name, await file.text());
  };

  return (
    <div className="panel readings-log" data-testid="readings-log">
      <input
        ref={input}
        type="file"
        accept=".csv,.jsonl,.txt,text/csv"
        hidden
        data-testid="readings-log-file"
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
      {log === null ? (
        <p className="note" style={{ margin: 0 }}>
          Figures below are sized on generated series.{" "}
          <button
            type="button"
            className="btn"
            data-testid="readings-log-choose"
            onClick={() => input.current?.click()}
          >
            Size on my log…
          </button>{" "}
          A CSV file with a header of field keys (a group&apos;s field as gps.lat) or JSON Lines, one reading a line.
        </p>
      ) : (
        <>
          <p className="note" style={{ margin: 0 }} data-testid="readings-log-label">
            {summary === null ? (
              <>Reading your log {log.name}…</>
            ) : summary.problems.length > 0 ? (
              <>
                <strong>Your log {log.name} cannot be sized:</strong> nothing is sized on part of a log. Fix these
                lines, or go back to generated series.
              </>
            ) : (
              <>
                <strong>
                  Your log: {summary.readings} readings, {log.name}
                </strong>{" "}
                — the figures below are its readings cut into messages in file order (no message holds more readings
                than the log).
              </>
            )}{" "}
            <button
              type="button"
              className="btn"
              data-testid="readings-log-choose"
              onClick={() => input.current?.click()}
            >
              Another file…
            </button>{" "}
            <button type="button" className="btn" data-testid="readings-log-clear" onClick={clear}>
              Back to generated series
            </button>
          </p>
          {summary && summary.problems.length > 0 && <Problems summary={summary} />}
        </>
      )}
      {fileError && (
        <p className="error" data-testid="readings-log-error">
          {fileError}
        </p>
      )}
    </div>
  );
}

function Problems({ summary }: { summary: LogSummary }) {
  const shown = summary.problems.slice(0, PROBLEMS_SHOWN);
  const more = summary.problems.length - shown.length + summary.problemsNotListed;
  return (
    <div data-testid="readings-log-problems">
      <ul style={{ margin: "6px 0" }}>
        {shown.map((p) => (
          <li key={`${p.line}:${p.field}:${p.message}`}>{describeLogProblem(p)}</li>
        ))}
      </ul>
      {more > 0 && <p className="note">… and {more} more.</p>}
    </div>
  );
}
