// The Export page: pick exports, preview the generated files, download them as a zip or save them into
// a folder; and the schema-evolution check between two versions of the layout.
import { useEffect } from "react";
import "./export.css";
import { DiffView } from "./DiffView.tsx";
import { ExportPicker } from "./ExportPicker.tsx";
import { enterExportPage, useExport } from "./exportStore.ts";
import { FilePreview } from "./FilePreview.tsx";
import { EXPORT_TABS } from "./tabs.ts";
import { BackLink } from "../../nav/BackLink.tsx";
import { go } from "../../nav/routeStore.ts";
import { useSlotRoute } from "../../nav/slotRoute.ts";
import { useDesigner } from "../../state/layoutStore.ts";
import { usePaintedOnce } from "../../ui/paintedOnce.ts";
import { ThemeToggle } from "../../ui/ThemeToggle.tsx";

export function ExportPage() {
  const name = useDesigner((s) => s.projectName);
  const route = useSlotRoute();
  const tab = route.page === "export" ? route.tab : null;
  const error = useExport((s) => s.error);
  const flash = useExport((s) => s.flash);
  useEffect(() => enterExportPage(), []);
  // the page's frame and the picker paint first; the highlighted preview of the files follows at low priority
  const ready = usePaintedOnce();
  return (
    <div className="export-page" data-testid="export-page">
      <header className="topbar">
        <BackLink testId="export-back" />
        <span className="divider-v" aria-hidden="true" />
        <h1 className="export-title">
          Export <span className="muted">{name}</span>
        </h1>
        <div className="spacer" />
        <ThemeToggle />
      </header>
      <div className="tabs" role="tablist">
        {EXPORT_TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            className="tab"
            aria-selected={tab === t.id}
            data-testid={`tab-export-${t.id}`}
            onClick={() => go({ page: "export", tab: t.id })}
          >
            {t.label}
          </button>
        ))}
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
          {ready ? (
            <FilePreview />
          ) : (
            <div className="empty" data-testid="export-preview-loading">
              Showing the files…
            </div>
          )}
        </div>
      ) : tab === "evolution" ? (
        <DiffView />
      ) : null}
    </div>
  );
}
