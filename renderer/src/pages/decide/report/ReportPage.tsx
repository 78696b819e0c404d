// The report page: print-ready document plus the screen-only toolbar (page size, PDF, CSV, PNG charts).
import { useEffect, useMemo, useState } from "react";
import type { Layout } from "#codecs";
import { PAGE_SIZES, type PageSize } from "#host/api/report.ts";
import {
  buildReport,
  type FleetScenario,
  messagesPerDay,
  reportCsv,
  type ReportInput,
  type ReportModel,
} from "#planning";
import { chartToPng } from "./exportPng.ts";
import { ReportDocument } from "./ReportDocument.tsx";
import { slug } from "./slug.ts";
import { reportSnapshot } from "./snapshot.ts";
import { base64ToBytes, downloadBlob } from "../../../download.ts";
import { asHostError } from "../../../host/errors.ts";
import { useSession } from "../../../session/sessionStore.ts";
import { useAnalysis, type SizesView } from "../../../state/analysis.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { useSettings } from "../../../state/settings.ts";
import { keepLast } from "../../../ui/keepLast.ts";
import { usePaintedOnce } from "../../../ui/paintedOnce.ts";
import { toPlanning } from "../budget/budgetModel.ts";
import { useBudget, whatIfOf } from "../budget/budgetStore.ts";
import { activeScenario, flushCosts, useDecide } from "../decideStore.ts";
import { measuredFrom } from "../measured.ts";
import { allTurnsTaken } from "../mountInTurn.ts";

const PAGE_CSS: Record<PageSize, string> = { A4: "A4", Letter: "letter" };

const reportOf = keepLast(
  (
    projectName: string,
    layout: Layout,
    layoutVersion: number,
    sizes: SizesView,
    scenario: FleetScenario,
    fitPlatforms: string[],
    budget: ReportInput["budget"],
  ): ReportModel =>
    buildReport({
      projectName,
      layout,
      // the session's version is the last one saved; 0 before the first save
      layoutVersion: layoutVersion > 0 ? layoutVersion : null,
      samples: { count: sizes.samples, seed: sizes.seed },
      measured: measuredFrom(sizes, layout),
      scenario,
      fitPlatforms,
      generatedAt: new Date().toISOString(),
      budget,
    }),
);

export function ReportPage() {
  // the toolbar paints first; the document (a model of every figure, a dozen charts) follows at low priority
  const ready = usePaintedOnce();
  const scenario = useDecide(activeScenario);
  const pageSize = useDecide((s) => s.pageSize);
  const sizes = useAnalysis((s) => s.sizes);
  const valid = useDesigner((s) => s.valid);
  const projectName = useDesigner((s) => s.projectName);
  const fitPlatforms = useSettings((s) => s.platforms);
  const shell = useSession((s) => s.shell);
  const layoutVersion = useSession((s) => s.version);
  // the battery-life section is the Budget view's what-if: its device, cadence and swap horizon
  const budgetState = useBudget();
  const { intervalMinutes } = whatIfOf(budgetState, scenario ? messagesPerDay(scenario.cadence) : 4, valid);
  const { device, radio, swapYears, swapPrices } = budgetState;
  const budget = useMemo(
    () => ({ ...toPlanning({ intervalMinutes }, device, radio), years: swapYears, prices: swapPrices }),
    [intervalMinutes, device, radio, swapYears, swapPrices],
  );
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: "info" | "error"; text: string } | null>(null);

  const model = useMemo(
    () =>
      ready && scenario && sizes && valid && valid.fields.length > 0
        ? reportOf(projectName || valid.name, valid, layoutVersion, sizes, scenario, fitPlatforms, budget)
        : null,
    [ready, scenario, sizes, valid, projectName, layoutVersion, fitPlatforms, budget],
  );
  // the printed PDF's title (its metadata, the viewer's window) is the project's, not the app's
  const title = model?.title;
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    document.title = title;
    return () => {
      document.title = before;
    };
  }, [title]);
  const fileBase = slug(projectName || valid?.name || "report");

  const pdf = async () => {
    await flushCosts();
    // the charts are drawn one a frame after the page opens: the printed page has them all
    await allTurnsTaken();
    const api = useSession.getState().api;
    if (!api) return;
    setBusy("pdf");
    try {
      if (shell === "electron") {
        const res = await api.call("report.savePdf", { pageSize, fileName: `${fileBase}-report.pdf` });
        setMessage(res ? { kind: "info", text: `Saved ${res.path} (${Math.round(res.bytes / 1024)} KB)` } : null);
      } else {
        // browser mode: the host prints this page's snapshot with Chromium and the file comes back as a download
        const res = await api.call("report.pdf", { pageSize, html: reportSnapshot() });
        const name = `${fileBase}-report.pdf`;
        downloadBlob(new Blob([base64ToBytes(res.base64)], { type: "application/pdf" }), name);
        setMessage({
          kind: "info",
          text: `Downloaded ${name} (${pageSize}, ${Math.max(1, Math.round(res.bytes / 1024))} KB)`,
        });
      }
    } catch (e) {
      setMessage({
        kind: "error",
        text: `PDF failed: ${asHostError(e).describe()}${shell === "electron" ? "" : " — the browser's own print dialog (Ctrl+P) still prints this page"}`,
      });
    } finally {
      setBusy(null);
    }
  };

  const allPngs = async () => {
    setBusy("png");
    try {
      await allTurnsTaken();
      const boxes = [...document.querySelectorAll<HTMLElement>("figure[data-chart]")];
      for (const b of boxes) downloadBlob(await chartToPng(b), `${fileBase}-${b.dataset.chart}.png`);
      setMessage({ kind: "info", text: `${boxes.length} charts saved as PNG` });
    } catch (e) {
      setMessage({ kind: "error", text: `PNG export failed: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="decide-page-body report-page" data-testid="report-page" data-page-size={pageSize}>
      <style>{`@page { size: ${PAGE_CSS[pageSize]}; margin: 14mm 12mm; }`}</style>
      <div className="analysis-controls screen-only report-toolbar">
        <div className="segmented" role="group" aria-label="Paper size">
          {PAGE_SIZES.map((p) => (
            <button
              key={p}
              type="button"
              aria-pressed={pageSize === p}
              data-testid={`page-${p}`}
              onClick={() => useDecide.setState({ pageSize: p })}
            >
              {p}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="btn primary"
          data-testid="report-pdf"
          disabled={!model || busy !== null}
          onClick={() => void pdf()}
        >
          {busy === "pdf" ? "Making the PDF…" : shell === "electron" ? "Save PDF…" : "Download PDF"}
        </button>
        <button
          type="button"
          className="btn"
          data-testid="report-csv"
          disabled={!model}
          onClick={() =>
            model && downloadBlob(new Blob([reportCsv(model)], { type: "text/csv" }), `${fileBase}-report.csv`)
          }
        >
          Numbers (CSV)
        </button>
        <button
          type="button"
          className="btn"
          data-testid="report-png"
          disabled={!model || busy !== null}
          onClick={() => void allPngs()}
        >
          {busy === "png" ? "Drawing charts…" : "Charts (PNG)"}
        </button>
        {message ? (
          <span
            className={message.kind === "error" ? "attention-text" : "muted"}
            data-testid="report-message"
            role="status"
          >
            {message.text}
          </span>
        ) : null}
      </div>
      <div className="decide-scroll report-scroll">
        {!valid || valid.fields.length === 0 ? (
          <div className="empty" data-testid="report-empty">
            <strong>Nothing to report yet</strong>
            Add fields in the designer: the report shows their sizes, fit and cost.
          </div>
        ) : !model || !sizes ? (
          <div className="empty" data-testid="report-computing">
            <strong>{sizes ? "Building the report…" : "Measuring message sizes…"}</strong>
            {sizes ? "Every figure and chart of the document." : "The report appears when every format is encoded."}
          </div>
        ) : (
          <ReportDocument model={model} sizes={sizes} />
        )}
      </div>
    </div>
  );
}
