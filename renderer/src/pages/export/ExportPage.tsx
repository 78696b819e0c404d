// The Export page: pick exports, preview the generated files, download them as a zip or save them into
// a folder; and the schema-evolution check between two versions of the layout.
import "./export.css";
import { ThemeToggle } from "../../components/common/ThemeToggle.tsx";
import { useDesigner } from "../../state/designer.ts";
import { DiffView } from "./DiffView.tsx";
import { ExportPicker } from "./ExportPicker.tsx";
import { FilePreview } from "./FilePreview.tsx";
import { openExportPage, useExport } from "./store.ts";

export function ExportPage() {
  const name = useDesigner((s) => s.projectName);
  const tab = useExport((s) => s.tab);
  const error = useExport((s) => s.error);
  const flash = useExport((s) => s.flash);
  return (
    <div className="export-page" data-testid="export-page">
      <header className="topbar">
        <button type="button" className="btn ghost" data-testid="export-back" onClick={() => openExportPage(false)}>
          ← Designer
        </button>
        <span className="divider-v" aria-hidden="true" />
        <h1 className="export-title">
          Export <span className="muted">{name}</span>
        </h1>
        <div className="spacer" />
        <ThemeToggle />
      </header>
      <div className="tabs" role="tablist">
        <button type="button" role="tab" className="tab" aria-selected={tab === "files"} data-testid="tab-export-files" onClick={() => useExport.setState({ tab: "files" })}>
          Code and schemas
        </button>
        <button type="button" role="tab" className="tab" aria-selected={tab === "evolution"} data-testid="tab-export-evolution" onClick={() => useExport.setState({ tab: "evolution" })}>
          Schema evolution
        </button>
      </div>
      {error && (
        <div className="banner attention" role="alert" data-testid="export-error">
          {error}
        </div>
      )}
      {flash && (
        <div className="banner info" role="status" data-testid="export-flash">
          {flash}
        </div>
      )}
      {tab === "files" ? (
        <div className="export-body">
          <ExportPicker />
          <FilePreview />
        </div>
      ) : (
        <DiffView />
      )}
    </div>
  );
}
