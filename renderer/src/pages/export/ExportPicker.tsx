// Left column of the Export page: which exports to generate, their options, and where the files go.
import { ExportOptionsForm } from "./ExportOptionsForm.tsx";
import { useExport, selectAll, toggleExporter, downloadZip, saveToFolder } from "./exportStore.ts";
import { useSession } from "../../session/sessionStore.ts";

function Destination() {
  const folder = useExport((s) => s.folder);
  const busy = useExport((s) => s.busy);
  const files = useExport((s) => s.generated?.files.length ?? 0);
  const shell = useSession((s) => s.shell);
  return (
    <section className="export-dest" aria-label="Save the files">
      <button
        type="button"
        className="btn primary"
        data-testid="download-zip"
        disabled={!files || busy.zip}
        onClick={() => void downloadZip()}
      >
        {busy.zip ? "Preparing zip…" : `Download zip (${files} file${files === 1 ? "" : "s"})`}
      </button>
      <label htmlFor="export-folder" className="export-opt-label">
        or save into a folder {shell === "browser" ? "on the computer running the studio" : ""}
      </label>
      <div className="export-folder-row">
        <input
          id="export-folder"
          className="input mono"
          data-testid="folder-input"
          placeholder="/home/me/firmware/export"
          value={folder}
          onChange={(e) => useExport.setState({ folder: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === "Enter") void saveToFolder();
          }}
        />
        <button
          type="button"
          className="btn"
          data-testid="save-folder"
          disabled={!files || !folder.trim() || busy.save}
          onClick={() => void saveToFolder()}
        >
          {busy.save ? "Saving…" : "Save"}
        </button>
      </div>
    </section>
  );
}

export function ExportPicker() {
  const exporters = useExport((s) => s.exporters);
  const selected = useExport((s) => s.selected);
  const generated = useExport((s) => s.generated);
  const problems = generated?.problems ?? [];
  return (
    <aside className="export-picker" data-testid="export-picker">
      <div className="export-picker-head">
        <h3>Exports</h3>
        <span className="spacer" />
        <button type="button" className="btn ghost small" onClick={() => selectAll(true)}>
          All
        </button>
        <button type="button" className="btn ghost small" onClick={() => selectAll(false)}>
          None
        </button>
      </div>
      {exporters.length === 0 ? (
        <div className="empty">Loading the export list…</div>
      ) : (
        <ul className="export-list">
          {exporters.map((e) => {
            const problem = problems.find((p) => p.exporter === e.id);
            return (
              <li key={e.id}>
                <label className={`export-item${problem ? " has-problem" : ""}`} title={e.description}>
                  <input
                    type="checkbox"
                    data-testid={`export-item-${e.id}`}
                    checked={selected.includes(e.id)}
                    onChange={() => toggleExporter(e.id)}
                  />
                  <span className="export-item-text">
                    <span className="export-item-label">{e.label}</span>
                    <span className="export-item-desc">
                      {problem ? `Not possible for this layout: ${problem.message}` : e.description}
                    </span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <ExportOptionsForm />
      <Destination />
    </aside>
  );
}
